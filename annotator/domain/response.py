"""The response format ``<think>..</think><action>..</action><tool_call>..</tool_call>`` (Mobile-R1 B.2).

One parser for the RL format reward, the export and the GUI; every problem names what is wrong and
where. Rules:

- Problems do not depend on the mode: ``parse_response(x, strict=True).problems`` equals the
  lenient one, so the GUI shows the same messages the format reward is computed from.
- The modes differ in what they hand back. Strict (the reward, the export) returns a part only when
  it is properly closed, and ``tool_call`` only when the tool call itself is fully valid (closed,
  plain JSON, no duplicate keys, a valid action). Lenient (the GUI, while someone types or when a
  generation was cut off) reads a part that is never closed up to the next tag or the end of the
  text, ignores text outside the tags, unwraps a ```json fence, and returns ``tool_call`` whenever
  the JSON parses to an object, valid action or not.
- Python-style single quotes are not JSON in either mode.
- Parts are stripped of surrounding whitespace; a valid tool call comes back in canonical key order.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from annotator.domain.actions import Action, ActionError, action_from_tool_call

PARTS: tuple[str, ...] = ("think", "action", "tool_call")
_TAG = re.compile(r"<(/?)(think|action|tool_call)>")
_EXPECTED_ORDER = tuple(f"<{slash}{name}>" for name in PARTS for slash in ("", "/"))
_FENCE = re.compile(r"\A```(?:json|JSON)?[ \t]*\n?(?P<body>.*?)\s*```\Z", re.DOTALL)
_QUOTE_CHARS = 30


@dataclass(frozen=True, slots=True)
class _Tag:
    start: int
    end: int
    name: str
    closing: bool

    def __str__(self) -> str:
        return f"</{self.name}>" if self.closing else f"<{self.name}>"


@dataclass(frozen=True, slots=True)
class _Part:
    content: str  # stripped
    offset: int  # where the stripped content starts in the whole response
    closed: bool


@dataclass
class ParsedResponse:
    """What a response holds; ``problems`` is empty exactly when it is well-formed."""

    think: str | None = None
    action: str | None = None
    tool_call: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def parsed_action(self) -> Action | None:
        """The typed action of ``tool_call``, or None when there is none or it is invalid."""
        if self.tool_call is None:
            return None
        try:
            return action_from_tool_call(self.tool_call)
        except ActionError:
            return None


def _tags(text: str) -> list[_Tag]:
    return [_Tag(m.start(), m.end(), m.group(2), m.group(1) == "/") for m in _TAG.finditer(text)]


def _tag_problems(tags: list[_Tag]) -> list[str]:
    """Missing, repeated, unclosed and unopened tags, part by part."""
    problems = []
    for name in PARTS:
        opens = [i for i, tag in enumerate(tags) if tag.name == name and not tag.closing]
        closes = [i for i, tag in enumerate(tags) if tag.name == name and tag.closing]
        if not opens and not closes:
            problems.append(f"missing <{name}>...</{name}>")
            continue
        if not opens:
            problems.append(f"</{name}> without an opening <{name}>")
            continue
        for count, tag in ((len(opens), f"<{name}>"), (len(closes), f"</{name}>")):
            if count > 1:
                problems.append(f"{tag} appears {count} times; expected once")
        following = tags[opens[0] + 1] if opens[0] + 1 < len(tags) else None
        # A second <name> right after the first is already reported as a repetition.
        if following is None or following.name != name:
            where = f"before {following}" if following else "before the end of the text"
            problems.append(f"unclosed <{name}>: no </{name}> {where}")
    return problems


def _order_problems(tags: list[_Tag]) -> list[str]:
    found = [str(tag) for tag in tags]
    if len(set(found)) != len(found):
        return []  # repetitions are reported already and make any order ambiguous
    expected = [tag for tag in _EXPECTED_ORDER if tag in found]
    if found == expected:
        return []
    expected_text = "<think>, <action>, <tool_call>, each closed"
    return [f"tags out of order: found {' '.join(found)}; expected {expected_text}"]


def _quote(text: str) -> str:
    snippet = text.strip()
    shown = snippet[:_QUOTE_CHARS] + ("…" if len(snippet) > _QUOTE_CHARS else "")
    return json.dumps(shown, ensure_ascii=False)


def _outside_problems(text: str, tags: list[_Tag]) -> list[str]:
    """Non-blank text that belongs to no part: before the first tag, after a closing tag."""
    if not tags:
        return [f"text outside the tags (there are no tags): {_quote(text)}"] if text.strip() else []
    problems = []
    bounds = [None, *tags, None]
    for before, after in itertools.pairwise(bounds):
        if before is not None and not before.closing:
            continue  # the content of a part (read up to the next tag)
        segment = text[before.end if before else 0 : after.start if after else len(text)]
        if segment.strip():
            where = (
                f"between {before} and {after}"
                if before and after
                else (f"after {before}" if before else f"before {after}")
            )
            problems.append(f"text outside the tags {where}: {_quote(segment)}")
    return problems


def _read_part(text: str, tags: list[_Tag], name: str) -> _Part | None:
    """The content after the first <name>, up to the next tag (its own closing tag when well-formed)."""
    index = next((i for i, tag in enumerate(tags) if tag.name == name and not tag.closing), None)
    if index is None:
        return None
    opening = tags[index]
    following = tags[index + 1] if index + 1 < len(tags) else None
    raw = text[opening.end : following.start if following else len(text)]
    closed = following is not None and following.name == name and following.closing
    return _Part(raw.strip(), opening.end + len(raw) - len(raw.lstrip()), closed)


def _json_problem(error: json.JSONDecodeError, body: str, offset: int) -> str:
    hint = ""
    if "double quotes" in error.msg and "'" in body:
        hint = "; JSON needs double quotes, 'single quotes' are Python"
    return (
        f"<tool_call> is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        f" of the tool call (offset {offset + error.pos} in the response){hint}"
    )


def _load_json(body: str, offset: int) -> tuple[bool, Any, list[str]]:
    """(whether it decodes, the decoded value, what is wrong with it)."""
    duplicates: list[str] = []

    def keep_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen and key not in duplicates:
                duplicates.append(key)
            seen.add(key)
        return dict(pairs)

    try:
        value = json.loads(body, object_pairs_hook=keep_pairs)
    except json.JSONDecodeError as error:
        return False, None, [_json_problem(error, body, offset)]
    except RecursionError:
        return False, None, ["<tool_call> JSON is nested too deeply to read"]
    return True, value, [f'<tool_call> JSON repeats the key "{key}"; the last one wins' for key in duplicates]


def _read_tool_call(part: _Part) -> tuple[Any, Action | None, list[str]]:
    """(decoded JSON or None, the valid action or None, problems) of a <tool_call> part."""
    body, offset, problems = part.content, part.offset, []
    fence = _FENCE.match(body)
    if fence:
        problems.append("<tool_call> JSON is wrapped in a ``` fence; write the bare JSON object")
        body, offset = fence.group("body"), offset + fence.start("body")
    decoded, value, json_problems = _load_json(body, offset)
    problems += json_problems
    if not decoded:
        return None, None, problems
    try:
        return value, action_from_tool_call(value), problems
    except ActionError as error:
        return value, None, [*problems, f"<tool_call> {error}"]


def parse_response(text: str, *, strict: bool = True) -> ParsedResponse:
    """Read a model or annotator response; see the module docstring for the two modes."""
    tags = _tags(text)
    parts = {name: _read_part(text, tags, name) for name in PARTS}
    problems = _tag_problems(tags) + _order_problems(tags) + _outside_problems(text, tags)
    for name, part in parts.items():
        if part is not None and part.closed and not part.content:
            problems.append(f"empty <{name}>...</{name}>")
    result = ParsedResponse(problems=problems)
    for name in ("think", "action"):
        part = parts[name]
        if part is not None and (part.closed or not strict):
            setattr(result, name, part.content)
    call = parts["tool_call"]
    if call is not None and call.content:
        value, action, call_problems = _read_tool_call(call)
        problems += call_problems
        if strict:
            result.tool_call = action.to_tool_call() if action and call.closed and not call_problems else None
        else:
            result.tool_call = action.to_tool_call() if action else value if isinstance(value, dict) else None
    return result


def tool_call_json(tool_call: Mapping[str, Any] | Action) -> str:
    """One-line JSON of a tool call: canonical key order when it is a valid action, else as given.

    A tag inside a JSON string ("</tool_call>" typed as text) is written with ``\\u003c`` for "<",
    which decodes to the same string but cannot end the part early.
    """
    value: Any = tool_call
    if isinstance(tool_call, Action):
        value = tool_call.to_tool_call()
    else:
        # An invalid call is written as given, so that a half-edited call survives a save.
        with contextlib.suppress(ActionError):
            value = action_from_tool_call(tool_call).to_tool_call()
    text = json.dumps(value, ensure_ascii=False)
    return _TAG.sub(lambda m: "\\u003c" + m.group()[1:], text)


def format_response(think: str, action: str, tool_call: Mapping[str, Any] | Action) -> str:
    """The canonical response text; parts are stripped, each on its own lines between its tags."""
    for name, part in (("think", think), ("action", action)):
        tag = _TAG.search(part)
        if tag:
            raise ValueError(f"{name}: contains the tag {tag.group()}, which would end the part early")
    return (
        f"<think>\n{think.strip()}\n</think>\n<action>\n{action.strip()}\n</action>\n"
        f"<tool_call>\n{tool_call_json(tool_call)}\n</tool_call>"
    )


def format_parsed(parsed: ParsedResponse) -> str:
    """:func:`format_response` of a parse result; ValueError when a part could not be read."""
    think, action, tool_call = parsed.think, parsed.action, parsed.tool_call
    if think is None or action is None or tool_call is None:
        missing = [name for name in PARTS if getattr(parsed, name) is None]
        raise ValueError(f"cannot format a response without {', '.join(missing)}")
    return format_response(think, action, tool_call)
