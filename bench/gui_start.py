"""The start part of bench/gui.py: the app as `annotator gui` starts it, in fresh processes, until the browser has rows.

Run by bench/gui.py; `python bench/gui_start.py DATA_DIR SPAWNED_AT` is the child process it starts.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def measure_start(data_dir: Path, spawned_at: float) -> dict[str, Any]:
    """In a fresh child process: the app as `annotator gui` starts it (run_gui), until the browser has rows.

    `spawned_at` is the parent's clock just before it started this process, so the figure includes the
    interpreter's start and every import. A timer polls the window from the event loop's first turn (rows
    arrive on that loop) and quits the app once the browser's model has rows.
    """
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from annotator.cli.gui import load_gui

    run_gui = load_gui()  # first, as `annotator gui` does (see annotator/ui/__init__.py)
    imported_at = time.time()
    from PySide6.QtCore import QTimer

    from annotator.ui import identity
    from annotator.ui.app import make_app
    from annotator.ui.main_window import MainWindow

    app = make_app(["bench"])
    identity.remember("bench", "annotator")  # a returning user: run_gui asks a new one who they are
    reached: dict[str, float] = {}

    def look() -> None:
        windows = [widget for widget in app.topLevelWidgets() if isinstance(widget, MainWindow)]
        if windows and windows[0].browser.model.rowCount() > 0:
            reached["rows_at"] = time.time()
            poll.stop()
            windows[0].close()
            app.quit()

    poll = QTimer(app)
    poll.timeout.connect(look)
    poll.start(1)
    run_gui(data_dir)
    return {
        "process_to_rows_ms": round((reached["rows_at"] - spawned_at) * 1000, 1),
        "process_to_imported_ms": round((imported_at - spawned_at) * 1000, 1),
        "process_peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


# The reference for a start: a process that shows an empty Qt window and returns to its event loop once.
BARE_QT = (
    "import sys, time; from PySide6.QtWidgets import QApplication, QWidget; app = QApplication(['bare']); "
    "window = QWidget(); window.show(); app.processEvents(); print(time.time())"
)


def time_process_start(data_dir: Path, repeats: int) -> dict[str, Any]:
    """`measure_start` in `repeats` fresh processes (their own settings and log folder), each followed by the bare
    Qt window for reference, so that a busy machine slows both alike; medians."""
    runs, bare = [], []
    environment = {"QT_QPA_PLATFORM": "offscreen", **os.environ, "HOME": str(data_dir.parent / "home-start")}
    environment.pop("XDG_CONFIG_HOME", None)
    environment.pop("XDG_STATE_HOME", None)
    # As on a user's machine, Python keeps the compiled modules between starts (the first start compiles them, the
    # others read them): a shell that sets PYTHONDONTWRITEBYTECODE would otherwise time the compiler at every start.
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    environment["PYTHONPYCACHEPREFIX"] = str(data_dir.parent / "pycache-start")
    for _ in range(repeats):
        command = [sys.executable, __file__, str(data_dir), repr(time.time())]
        done = subprocess.run(command, check=True, capture_output=True, text=True, env=environment)
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
        spawned_at = time.time()
        done = subprocess.run(
            [sys.executable, "-c", BARE_QT], check=True, capture_output=True, text=True, env=environment
        )
        bare.append((float(done.stdout.strip().splitlines()[-1]) - spawned_at) * 1000)
    figures = {name: round(statistics.median(run[name] for run in runs), 1) for name in runs[0]}
    figures["process_bare_qt_window_ms"] = round(statistics.median(bare), 1)
    figures["process_to_rows_vs_bare_qt"] = round(
        figures["process_to_rows_ms"] / figures["process_bare_qt_window_ms"], 2
    )
    return figures | {"process_to_rows_first_ms": runs[0]["process_to_rows_ms"]}


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1].startswith("-"):
        sys.exit("usage: python bench/gui_start.py DATA_DIR SPAWNED_AT (bench/gui.py runs it; run that instead)")
    print(json.dumps(measure_start(Path(sys.argv[1]), float(sys.argv[2]))))
