"""The app in its own process for test_crash: open a trajectory, type into the think editor like a person,
say "edited", and keep running until killed. Usage: python -m tests.ui.edit_then_wait DATA_DIR SETTINGS TEXT"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtTest import QTest

from annotator.ui import identity
from annotator.ui.app import make_app
from annotator.ui.main_window import MainWindow


def pump_until(done, limit_s: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + limit_s
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there")
        QCoreApplication.processEvents()
        time.sleep(0.005)


def main(data_dir: Path, settings: Path, text: str) -> int:
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(settings))
    app = make_app(["edit-then-wait"])
    identity.remember("小王", "annotator")
    window = MainWindow(app.languages)
    window.show()
    window.open_workspace(data_dir)
    pump_until(lambda: window.workspace is not None)
    window.open_trajectory(1)
    pump_until(lambda: window.annotate.is_showing(1))
    editor = window.annotate.editors.think.edit
    window.annotate.show_stage("think")
    editor.setFocus(Qt.FocusReason.OtherFocusReason)
    editor.selectAll()
    QTest.keyClicks(editor, text)  # keystrokes, as a person types them (ASCII: QTest cannot type CJK)
    print("edited", flush=True)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]))
