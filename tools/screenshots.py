"""Screenshots of every view of the desktop app, in each language, from a real window on an X server.

For looking at what a person sees before a GUI change is called done. It builds (or reuses) a demo workspace,
starts its virtual phone, opens each view in turn and grabs the whole screen, so menus, fonts and the window
frame are the X server's, not an offscreen rendering. Nothing of the user's is touched: the settings live in
a temporary folder.

    apt-get install xvfb libxcb-cursor0
    xvfb-run -s "-screen 0 1440x900x24" .venv/bin/python tools/screenshots.py shots/

The window fills the X screen: `-screen 0 760x560x24` shows the smallest window the app supports.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.demo.workspace.build import build_demo
from annotator.llm.client import LLMConfig
from annotator.services import blind_rating, judging, studies
from annotator.storage import judging as judging_store
from annotator.storage import models
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.app import make_app, start_demo_peers
from annotator.ui.main_window import MainWindow

VIEWS = ("collect", "browser", "annotate", "review", "stats", "judge", "studies", "models", "runs")
STUDY = "演示研究"
RATERS = ("小王", "小李", "张审核")


def wait_until(ready: Callable[[], bool], seconds: float = 30.0, settle: float = 0.4) -> None:
    """Run the event loop until `ready()` holds, then a little longer so that paints land."""
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise TimeoutError(f"the window was not ready within {seconds} s")
        QApplication.processEvents()
        time.sleep(0.02)
    settle_until = time.monotonic() + settle
    while time.monotonic() < settle_until:
        QApplication.processEvents()
        time.sleep(0.02)


def first_boxed_click(data_dir: Path) -> tuple[int, int]:
    """(trajectory id, step index) of the first labelled click with a target box: the canvas shows every overlay."""
    workspace = Workspace.open(data_dir)
    try:
        with workspace.database.session() as session:
            steps = session.scalars(
                select(models.Step)
                .where(models.Step.label_action == "click")
                .order_by(models.Step.trajectory_id, models.Step.index)
            ).all()
            found = [(step.trajectory_id, step.index) for step in steps if step.target_box]
    finally:
        workspace.close()
    if not found:
        raise SystemExit("the demo workspace has no labelled click with a target box")
    return found[0]


def judge_and_study(data_dir: Path) -> None:
    """Judge the demo with the scripted endpoint and start a study that 小李 and 张审核 have rated and 小王 has
    begun, so that the Judge and Studies views have something to show (skipped when the study exists)."""
    with Workspace.open(data_dir) as workspace, ScriptedEndpoint(seed=0) as endpoint:
        if any(info.name == STUDY for info in studies.list_studies(workspace.database)):
            return
        settings = judging.make_settings("scripted")
        summary = judging.run_judge(
            workspace, settings, LLMConfig(endpoint.base_url, "scripted"), judging.judge_selection(), concurrency=4
        )
        studies.create_study(workspace.database, STUDY, summary.config_id, 10, list(RATERS), created_by="主管")
        rewards = judging_store.rewards(workspace.database, summary.config_id)
        for number, rater in enumerate(RATERS):
            queue = blind_rating.rater_queue(workspace.database, STUDY, rater)
            for entry in queue if number else queue[:2]:
                score = max(0, min(4, rewards[entry.trajectory_id] - (entry.number + number) % 3 + 1))
                blind_rating.rate(workspace.database, STUDY, rater, entry.item_id, score)


def grab(window: MainWindow, path: Path) -> None:
    screen = window.screen()
    if not screen.grabWindow(0).save(str(path)):
        raise SystemExit(f"could not write {path}")
    print(path)


def go_to_step(window: MainWindow, index: int) -> None:
    """With the keyboard's moves, as a person would: the view remembers the step it showed last."""
    annotate = window.annotate
    while (current := annotate.order.index(annotate.current_step_id())) != index:
        (annotate.next_step if current < index else annotate.previous_step)()


def mark_privacy_region(window: MainWindow) -> None:
    """The privacy tool on and, unless the step has one, a region marked over the lower part of the screen the way a
    drag does (the canvas's signal), so that the shot shows how a region looks beside the label's shapes."""
    annotate = window.annotate
    annotate.privacy.set_active(True)
    if not annotate.privacy.regions():
        step = annotate.steps[annotate.current_step_id()]
        annotate.canvas.region_drawn.emit(
            step.screen.width * 0.05, step.screen.height * 0.62, step.screen.width * 0.62, step.screen.height * 0.7
        )
    wait_until(lambda: annotate.saver.idle() and not window.jobs.busy())
    annotate.canvas.select_region(None)  # as it looks most of the time


def shoot(window: MainWindow, out: Path, language: str, boxed_click: tuple[int, int]) -> None:
    window.set_language(language)
    for view in VIEWS:
        if view == "annotate":
            trajectory_id, step_index = boxed_click
            window.open_trajectory(trajectory_id)
            wait_until(lambda: window.annotate.current_step_id() is not None and not window.jobs.busy())
            go_to_step(window, step_index)
            mark_privacy_region(window)
        else:
            window.show_view(view)
        if view == "collect":
            wait_until(lambda: window.collect.phone_screen.image is not None)
        if view == "stats":
            wait_until(lambda: not window.stats.is_loading())
        if view == "studies":
            wait_until(lambda: window.studies.rating.trajectory is not None)
        wait_until(lambda: not window.jobs.busy(), settle=1.0)
        grab(window, out / f"{view}-{language}.png")
        window.annotate.privacy.set_active(False)  # the other views' shots show the toolbar as it usually is
    identity.remember("主管", "reviewer")  # not a rater: the report
    window.show_view("studies")
    window.studies.reload()
    wait_until(lambda: window.studies.report.report is not None, seconds=60)
    wait_until(lambda: not window.jobs.busy(), settle=1.0)
    grab(window, out / f"studies-report-{language}.png")
    identity.remember("小王", "annotator")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="folder for the PNG files")
    parser.add_argument("--data-dir", type=Path, help="an existing demo workspace (default: build one)")
    parser.add_argument("--languages", nargs="+", default=["en", "zh_CN"])
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="annotator-shots-"))
    data_dir = args.data_dir or scratch / "demo"
    if args.data_dir is None:
        build_demo(data_dir, progress=print)
    judge_and_study(data_dir)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(scratch / "settings"))
    app = make_app()
    identity.remember("小王", "annotator")
    window = MainWindow(app.languages)
    window.setGeometry(app.primaryScreen().availableGeometry())  # Xvfb has no window manager to maximise it
    window.show()
    window.workspace_opened.connect(lambda _workspace: start_demo_peers(window))
    window.open_workspace(data_dir)
    wait_until(lambda: window.workspace is not None and window.browser.summary is not None)
    boxed_click = first_boxed_click(data_dir)
    for language in args.languages:
        shoot(window, args.out, language, boxed_click)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
