"""What starting a command or the app loads: only what it uses (issue 14, section 3).

Each case runs in a fresh interpreter and lists ``sys.modules`` afterwards. The heavy packages below cost
seconds and hundreds of MiB between them (bench/README.md has the figures); a command or a view that needs
one imports it where it is used, so a module-level import of one of them anywhere on these paths fails here.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.workspaces import NewWorkspace

pytestmark = pytest.mark.slow

# Statistics, charts, the model client, the training stack: loaded by the command or view that uses them.
HEAVY = (
    "openai",
    "numpy",
    "pandas",
    "pyarrow",
    "scipy",
    "sklearn",
    "statsmodels",
    "krippendorff",
    "matplotlib",
    "torch",
    "transformers",
    "datasets",
    "trl",
)
# The database layer, images, phones and Qt: what `--help` and `--version` have no use for.
APP_LAYERS = ("sqlalchemy", "alembic", "annotator.storage", "PIL", "adbutils", "PySide6")
MARK = "loaded modules:"


def loaded_by(code: str, tmp_path: Path) -> set[str]:
    """The modules a fresh interpreter holds after running `code` in `tmp_path` (output of `code` is ignored)."""
    return set(load_order(code, tmp_path))


def load_order(code: str, tmp_path: Path) -> list[str]:
    """The modules a fresh interpreter holds after running `code`, in the order they were imported."""
    probe = textwrap.dedent(code) + f"\nimport sys\nprint({MARK!r}, ' '.join(sys.modules))\n"
    completed = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
        env={"QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert completed.returncode == 0, completed.stderr
    line = next(line for line in completed.stdout.splitlines() if line.startswith(MARK))
    return line.removeprefix(MARK).split()


def run_command(module: str, *argv: str) -> str:
    """Code that runs a console script's `main` with `argv`, as the installed command would."""
    return f"""
        import sys
        from {module} import main
        sys.argv = ["command", *{list(argv)!r}]
        try:
            main()
        except SystemExit as exit:
            assert exit.code in (0, None), exit.code
    """


def found(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(p for p in packages if any(m == p or m.startswith(p + ".") for m in modules))


@pytest.mark.parametrize(
    "code",
    [
        "import annotator.cli.root",
        run_command("annotator.cli.root", "--help"),
        run_command("annotator.cli.root", "--version"),
        run_command("trainer_bridge.cli.root", "--help"),
        run_command("trainer_bridge.cli.root", "--version"),
    ],
    ids=[
        "import annotator.cli.root",
        "annotator --help",
        "annotator --version",
        "trainer-bridge --help",
        "trainer-bridge --version",
    ],
)
def test_help_and_version_load_neither_the_database_nor_heavy_packages(code: str, tmp_path: Path) -> None:
    assert found(loaded_by(code, tmp_path), HEAVY + APP_LAYERS) == []


# `stats` counts with the statistics module that the Statistics view and `trainer-bridge stats` share, whose
# tables are pandas frames: it may load pandas (and what pandas loads), nothing else heavy. `db info` counts rows.
COUNTING = ("pandas", "numpy", "pyarrow")


@pytest.mark.parametrize(("argv", "counting"), [(("db", "info"), ()), (("stats", "--json"), COUNTING)], ids=str)
def test_a_workspace_command_loads_the_database_and_nothing_heavy(
    argv: tuple[str, ...], counting: tuple[str, ...], tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    new_workspace(tmp_path / "data").close()  # an up-to-date workspace: no migration to run, so no Alembic
    modules = loaded_by(run_command("annotator.cli.root", "--data-dir", str(tmp_path / "data"), *argv), tmp_path)
    assert "annotator.storage.workspace" in modules  # the probe ran the command
    heavy = tuple(package for package in HEAVY if package not in counting)
    assert found(modules, (*heavy, "PIL", "adbutils", "PySide6", "alembic")) == []  # up to date: no migrations


def test_importing_the_app_loads_no_heavy_package(tmp_path: Path) -> None:
    modules = loaded_by("import annotator.ui.app", tmp_path)
    assert "annotator.ui.main_window" in modules
    assert found(modules, (*HEAVY, "alembic")) == []


def test_the_app_loads_the_layers_under_it_before_qt(tmp_path: Path) -> None:
    """PySide6 reads the source of every module imported after it (annotator/ui/__init__.py says why)."""
    order = load_order("import annotator.ui.app", tmp_path)
    qt = order.index("PySide6")
    assert [name for name in ("sqlalchemy.orm", "PIL") if order.index(name) > qt] == []
    assert "adbutils" not in order  # the phone layer comes with the Collect view


def test_the_window_makes_a_view_and_loads_its_modules_when_it_is_first_shown(tmp_path: Path) -> None:
    """At start only the trajectory list is made; the Collect view (phones, adbutils) and Annotate (canvas,
    editors) are made, and their modules loaded, when first shown."""
    code = """
        import sys
        from annotator.ui.app import make_app
        from annotator.ui.main_window import MainWindow

        app = make_app(["probe"])
        window = MainWindow(app.languages)
        assert list(window.views) == ["browser"], list(window.views)
        assert window.menu_actions.actions["annotate.verdict_correct"].isVisible()  # in its menu, greyed
        assert not window.menu_actions.actions["annotate.verdict_correct"].isEnabled()
        assert "adbutils" not in sys.modules and "annotator.ui.annotate.view" not in sys.modules
        window.show_view("collect")
        assert "adbutils" in sys.modules and window.stack.currentWidget().isAncestorOf(window.views["collect"])
        window.show_view("annotate")
        assert window.menu_actions.actions["annotate.verdict_correct"].isVisible()
        window.close()
    """
    modules = loaded_by(code, tmp_path)
    assert {"adbutils", "annotator.ui.annotate.view"} <= modules


def test_the_app_shows_the_browser_without_loading_what_hidden_views_use(tmp_path: Path) -> None:
    """The window on a workspace, every view made and given it: the Statistics, Studies and Judge views and
    the model client load their packages when they are first used, not before."""
    code = f"""
        import time
        from pathlib import Path
        from PySide6.QtCore import QCoreApplication
        from annotator.ui.app import make_app
        from annotator.ui.main_window import MainWindow

        app = make_app(["probe"])
        window = MainWindow(app.languages)
        for view_id in window.rows:
            window.view(view_id)
        window.show()
        window.open_workspace(Path({str(tmp_path / "data")!r}), create=True)
        deadline = time.monotonic() + 60
        while (window.workspace is None or window.jobs.busy()) and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.005)
        assert window.workspace is not None and not window.jobs.busy()
        window.close()
    """
    modules = loaded_by(code, tmp_path)
    assert found(modules, HEAVY) == []


# What the window's start on a SQLite workspace has no use for: each loads where it is first needed.
NOT_AT_START = (
    "sqlalchemy.dialects.postgresql",  # the first upsert on a PostgreSQL workspace (storage.writing)
    "psutil",  # the first run whose process is looked at (storage.processes)
    "rapidfuzz",  # the first edit ratio (domain.drafts)
)


def test_the_app_opens_a_sqlite_workspace_without_what_its_start_does_not_use(
    tmp_path: Path, new_workspace: NewWorkspace
) -> None:
    """A workspace made before (as a returning user's: no migration, so no Alembic, which loads every dialect)
    opened in the window until its rows and counts are in."""
    new_workspace(tmp_path / "data").close()
    code = f"""
        import time
        from pathlib import Path
        from PySide6.QtCore import QCoreApplication
        from annotator.ui.app import make_app
        from annotator.ui.main_window import MainWindow

        app = make_app(["probe"])
        window = MainWindow(app.languages)
        window.show()
        window.open_workspace(Path({str(tmp_path / "data")!r}))
        deadline = time.monotonic() + 60
        while (window.workspace is None or window.jobs.busy()) and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.005)
        assert window.workspace is not None and not window.jobs.busy()
        assert window.browser.summary is not None  # the counts were read
        window.close()
    """
    modules = loaded_by(code, tmp_path)
    assert "annotator.storage.browse" in modules and "alembic" not in modules
    assert found(modules, NOT_AT_START) == []
