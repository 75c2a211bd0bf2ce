"""The docs stand alone and stay current: every link and anchor resolves inside the repository, nothing points
outside it, the README stays short, the architecture's layout names every package, and the user guide every
command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("annotator", "trainer_bridge")
DOCS = sorted([ROOT / "README.md", ROOT / "bench" / "README.md", *(ROOT / "docs").rglob("*.md")])
SOURCES = [path for package in (*PACKAGES, "bench", "tests", "tools") for path in (ROOT / package).rglob("*.py")]
# Spelled in parts, so that this file does not hold what it looks for.
OUTSIDE = ("DESIGN" + ".md", "../" + "shared")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ARCHITECTURE_ANCHOR = re.compile(r"docs/architecture\.md#([\w-]+)")
FENCE = re.compile(r"\s*```[\w+-]*\s*$")  # a code block's first or last line
README_MAX_LINES = 300


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces to -."""
    words = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return words.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (not the comment lines of its code blocks), duplicates numbered."""
    found: set[str] = set()
    fenced = False
    for line in text(path).splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6} (.+)", line)):
            name = base = anchor(match.group(1))
            number = 0
            while name in found:
                number += 1
                name = f"{base}-{number}"
            found.add(name)
    return found


def without_code_blocks(markdown: str) -> str:
    kept, fenced = [], False
    for line in markdown.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return "\n".join(kept)


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_resolves_inside_the_repository(doc: Path) -> None:
    broken = []
    for target in LINK.findall(without_code_blocks(text(doc))):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        file_part, _, fragment = target.partition("#")
        resolved = (doc.parent / file_part).resolve() if file_part else doc
        outside = not resolved.exists() or not resolved.is_relative_to(ROOT)
        if outside or (fragment and resolved.suffix == ".md" and fragment not in anchors(resolved)):
            broken.append(target)
    assert broken == [], f"{doc.relative_to(ROOT)}: links that lead nowhere: {broken}"


def test_nothing_points_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {word}" for path in [*DOCS, *SOURCES] for word in OUTSIDE if word in text(path)
    ]
    assert found == []


def test_the_architecture_sections_named_in_the_code_and_docs_exist() -> None:
    headings = anchors(ROOT / "docs" / "architecture.md")
    named = {
        f"{path.relative_to(ROOT)}: #{name}"
        for path in [*DOCS, *SOURCES]
        for name in ARCHITECTURE_ANCHOR.findall(text(path))
        if name not in headings
    }
    assert named == set()


def test_the_readme_is_short() -> None:
    assert len(text(ROOT / "README.md").splitlines()) <= README_MAX_LINES


def test_the_layout_names_every_package_of_both_halves() -> None:
    layout = text(ROOT / "docs" / "architecture.md")
    packages = sorted(
        init.parent.relative_to(ROOT).as_posix() + "/"
        for package in PACKAGES
        for init in (ROOT / package).rglob("__init__.py")
    )
    assert len(packages) > 20
    assert [package for package in packages if f"`{package}`" not in layout] == []


def test_the_user_guide_names_every_command() -> None:
    from annotator.cli.root import COMMANDS as ANNOTATOR
    from trainer_bridge.cli.root import COMMANDS as BRIDGE
    from trainer_bridge.cli.root import cli as bridge

    guide = text(ROOT / "docs" / "user-guide.md")
    commands = [f"annotator {name}" for name in ANNOTATOR]
    commands += [f"trainer-bridge {name}" for name in {*BRIDGE, *bridge.commands}]
    assert [command for command in commands if command not in guide] == []
