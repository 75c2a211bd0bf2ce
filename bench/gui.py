"""Benchmark the GUI (offscreen): show the trajectory browser over 100,000 trajectories, sort, filter, scroll.

Builds a workspace with SQLAlchemy Core bulk inserts (28 apps, 1,500 instructions, steps, labels with revisions,
review states), then measures in a child process, so that its peak memory is the app's alone: a new main window
until the first page is in the table and until the counts are shown, the same page straight from the browse service
(the reference: what the window adds), the next page on scrolling, sorting by every column and a free-text search.
Then the app as `annotator gui` starts it (run_gui; bench/gui_start.py), in fresh processes, from process start to
the first rows of the browser. Then a second workspace of 25-step trajectories with real virtual-phone screenshots
(1,000 of them: 25,000 steps; bench/gui_annotation.py): opening a trajectory in the annotation view, switching
steps, and the peak memory of a window holding it. Prints one JSON object (docs/architecture.md#benchmarks) as its last
line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from gui_annotation import build_annotation_workspace, measure_annotation
from gui_effort import add_effort_trajectory, measure_effort
from gui_start import time_process_start

APPS = [
    "淘宝",
    "京东",
    "拼多多",
    "美团",
    "饿了么",
    "大众点评",
    "携程旅行",
    "高德地图",
    "百度地图",
    "滴滴出行",
    "支付宝",
    "微信",
    "QQ",
    "微博",
    "小红书",
    "抖音",
    "快手",
    "哔哩哔哩",
    "爱奇艺",
    "腾讯视频",
    "网易云音乐",
    "QQ音乐",
    "知乎",
    "今日头条",
    "闲鱼",
    "12306",
    "设置",
    "日历",
]  # 28 apps, as in Mobile-R1
VERBS = ["搜索", "打开", "查看", "收藏", "关注", "分享", "加入购物车", "删除", "设置", "下载"]
THINGS = ["耳机", "机票", "外卖", "电影票", "酒店", "咖啡", "直播间", "评论", "歌单", "订单", "蓝牙", "闹钟"]
REVIEW_STATES = ["unlabelled"] * 5 + ["in_progress", "annotated", "annotated", "accepted", "accepted", "rejected"]
PEOPLE = ["小王", "小李", "阿明", "李审核"]
CHUNK = 20_000


def log(message: str) -> None:
    print(f"[bench gui] {message}", file=sys.stderr, flush=True)


def build(data_dir: Path, n_trajectories: int, max_steps: int, seed: int = 7) -> dict[str, int]:
    """A migrated workspace filled with Core bulk inserts, chunk by chunk (memory stays flat)."""
    from sqlalchemy import insert

    from annotator.storage import models
    from annotator.storage.workspace import Workspace

    rng = random.Random(seed)
    start = datetime(2025, 1, 1, 8, 0, tzinfo=UTC)
    made = {"trajectories": 0, "steps": 0, "revisions": 0}
    with Workspace.open(data_dir) as workspace, workspace.database.engine.begin() as connection:
        connection.execute(insert(models.App), [{"id": i + 1, "name": name} for i, name in enumerate(APPS)])
        connection.execute(
            insert(models.Person), [{"id": i + 1, "name": n, "role": "annotator"} for i, n in enumerate(PEOPLE)]
        )
        instructions = [
            {
                "id": i + 1,
                "uid": f"i-{i}",
                "app_id": i % len(APPS) + 1,
                "text": f"打开{APPS[i % len(APPS)]}，{rng.choice(VERBS)}{rng.choice(THINGS)}（第 {i} 条）",
            }
            for i in range(1500)
        ]
        connection.execute(insert(models.Instruction), instructions)
        connection.execute(insert(models.Blob), [{"sha256": "0" * 64, "size": 1, "media_type": "image/png"}])
        step_id = 0
        for first in range(0, n_trajectories, CHUNK):
            trajectories, steps, revisions = [], [], []
            for t in range(first + 1, min(first + CHUNK, n_trajectories) + 1):
                review = rng.choice(REVIEW_STATES)
                human = rng.random() < 0.2
                trajectories.append(
                    {
                        "id": t,
                        "uid": f"t-{t}",
                        "instruction_id": rng.randint(1, 1500),
                        "run_number": 1,
                        "collector_kind": "human" if human else "agent",
                        "collector_person_id": 1 if human else None,
                        "agent_model": None if human else rng.choice(["qwen2.5-vl-7b", "gpt-4o", "scripted"]),
                        "status": "complete" if rng.random() < 0.95 else "interrupted",
                        "review_status": review,
                        "outcome": rng.choice(["success", "failure"]),
                        "started_at": start + timedelta(seconds=37 * t),
                    }
                )
                labelled = review != "unlabelled"
                labeller = rng.randint(1, 3)
                for index in range(rng.randint(1, max_steps)):
                    step_id += 1
                    steps.append(
                        {
                            "id": step_id,
                            "trajectory_id": t,
                            "index": index,
                            "screenshot_sha256": "0" * 64,
                            "screen_width": 1080,
                            "screen_height": 2400,
                            "raw_action": "click",
                            "think": f"当前在第 {index} 步，需要{rng.choice(VERBS)}" if labelled else None,
                            "action_text": f"点击{rng.choice(THINGS)}" if labelled else None,
                        }
                    )
                    if labelled:
                        revisions.append({"step_id": step_id, "field": "think", "person_id": labeller})
            connection.execute(insert(models.Trajectory), trajectories)
            connection.execute(insert(models.Step), steps)
            if revisions:
                connection.execute(insert(models.LabelRevision), revisions)
            made["trajectories"] += len(trajectories)
            made["steps"] += len(steps)
            made["revisions"] += len(revisions)
    return made


def measure(data_dir: Path, repeats: int) -> dict[str, Any]:
    """In the child process: the window over the workspace, timed; returns figures in milliseconds."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QEventLoop, QSettings, Qt

    from annotator.storage import browse
    from annotator.storage.workspace import Workspace
    from annotator.ui.app import make_app
    from annotator.ui.browser.model import COLUMN_INDEX
    from annotator.ui.main_window import MainWindow

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(data_dir.parent / "settings"))
    app = make_app(["bench"])

    def until(done: Callable[[], bool], limit_s: float = 120.0) -> float:
        started = time.perf_counter()
        while not done():
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
            time.sleep(0.0005)  # the workers have the CPU; 0.5 ms is the resolution of these figures
            if time.perf_counter() - started > limit_s:
                raise TimeoutError("the window did not get there in time")
        return (time.perf_counter() - started) * 1000

    first_rows, counts, service = [], [], []
    window = None
    for _ in range(repeats):
        if window is not None:
            window.close()
        started = time.perf_counter()
        window = MainWindow(app.languages)
        window.show()
        window.open_workspace(data_dir)
        browser = window.browser
        until(lambda b=browser: b.model.rowCount() > 0)
        first_rows.append((time.perf_counter() - started) * 1000)
        until(lambda b=browser: b.summary is not None)
        counts.append((time.perf_counter() - started) * 1000)
    assert window is not None
    browser, model = window.browser, window.browser.model
    with Workspace.open(data_dir) as workspace:
        for _ in range(repeats):
            started = time.perf_counter()
            browse.fetch_page(workspace.database, browse.BrowseFilter(), browse.Sort("id", True), None, model.page_size)
            service.append((time.perf_counter() - started) * 1000)
    browser.table.scrollToBottom()
    total = browser.summary.total if browser.summary else 0
    scroll_ms = until(lambda: model.rowCount() >= min(2 * model.page_size, total))
    sort_ms = {}
    for column, index in COLUMN_INDEX.items():
        started = time.perf_counter()
        browser.table.sortByColumn(index, Qt.SortOrder.AscendingOrder)
        sort_ms[column] = round(until(lambda: model.rowCount() > 0 and not model.loading()), 1)
    browser.table.sortByColumn(COLUMN_INDEX["id"], Qt.SortOrder.DescendingOrder)  # search in the default order
    until(lambda: model.rowCount() > 0 and not model.loading())
    browser.filters.search.setText("蓝牙")
    started = time.perf_counter()
    browser.filters.search.returnPressed.emit()
    search_rows_ms = until(lambda: model.where.text == "蓝牙" and not model.loading())
    search_counts_ms = until(lambda: browser.summary is not None and browser.summary.shown < browser.summary.total)
    summary = browser.summary
    window.close()
    return {
        "show_browser_ms": round(statistics.median(first_rows), 1),
        "show_browser_first_ms": round(first_rows[0], 1),
        "show_counts_ms": round(statistics.median(counts), 1),
        "service_first_page_ms": round(statistics.median(service), 1),
        "next_page_on_scroll_ms": round(scroll_ms, 1),
        "sort_first_page_ms": sort_ms,
        "search_first_page_ms": round(search_rows_ms, 1),
        "search_counts_ms": round(search_rows_ms + search_counts_ms, 1),
        "search_matches": summary.shown if summary else None,
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "repeats": repeats,
    }


def child_window(data_dir: Path, settings: str, limit_s: float) -> tuple[Any, Callable[..., float]]:
    """In a child process: the app's main window on `data_dir` (offscreen, its own settings), shown, active and
    loaded, and `until(done)`, which processes events until `done()` and returns the milliseconds it took."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QEventLoop, QSettings

    from annotator.ui import identity
    from annotator.ui.app import make_app
    from annotator.ui.main_window import MainWindow

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(data_dir.parent / settings))
    app = make_app(["bench"])
    identity.remember("bench", "annotator")

    def until(done: Callable[[], bool], limit: float = limit_s) -> float:
        started = time.perf_counter()
        while not done():
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
            time.sleep(0.0005)
            if time.perf_counter() - started > limit:
                raise TimeoutError("the window did not get there in time")
        return (time.perf_counter() - started) * 1000

    window = MainWindow(app.languages)
    window.resize(1400, 900)
    window.show()
    window.activateWindow()  # key presses go through the window's shortcuts, as a person's do
    window.open_workspace(data_dir)
    until(lambda: window.browser.summary is not None and not window.jobs.busy())
    return window, until


def measure_annotation_workspace(data_dir: Path, repeats: int) -> dict[str, Any]:
    """In a child process: the window on the 25,000-step workspace, trajectories opened and stepped through."""
    window, until = child_window(data_dir, "settings-a", limit_s=120.0)
    figures = measure_annotation(window, until, repeats)
    window.close()
    figures["annotation_peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return figures


def build_effort_workspace(data_dir: Path) -> None:
    """One unlabelled effort trajectory on a real virtual-phone screenshot."""
    from annotator.demo.phone.phone import VirtualPhone
    from annotator.storage.workspace import Workspace

    png = VirtualPhone(serial="bench-effort").screencap_png()
    workspace = Workspace.open(data_dir)
    try:
        add_effort_trajectory(workspace, png)
    finally:
        workspace.close()


def measure_effort_workspace(data_dir: Path) -> dict[str, Any]:
    """In a child process: the annotator's key presses on the everyday paths (bench/gui_effort.py)."""
    from annotator.demo.phone.phone import VirtualPhone

    window, until = child_window(data_dir, "settings-e", limit_s=60.0)
    figures = measure_effort(window, until, VirtualPhone(serial="bench-effort").screencap_png())
    window.close()
    return figures


def machine() -> dict[str, Any]:
    import PySide6
    import sqlalchemy

    info = {"platform": platform.platform(), "python": platform.python_version(), "cpu_count": os.cpu_count()}
    info |= {"sqlite": sqlite3.sqlite_version, "sqlalchemy": sqlalchemy.__version__, "pyside6": PySide6.__version__}
    info["qpa"] = os.environ.get("QT_QPA_PLATFORM", "offscreen")
    return info


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--trajectories", type=int, default=100_000, help="trajectories in the workspace")
    parser.add_argument("--max-steps", type=int, help="steps per trajectory are 1..this (default 10; 3 with --quick)")
    parser.add_argument("--repeats", type=int, help="windows opened; figures are medians (default 3; 2 with --quick)")
    parser.add_argument("--quick", action="store_true", help="fewer steps and repeats, under a minute")
    parser.add_argument("--workdir", type=Path, help="where the work folder goes (default: system temp)")
    parser.add_argument("--keep", action="store_true", help="keep the workspace")
    parser.add_argument("--annotation-trajectories", type=int, help="25-step trajectories (default 1000; 40 quick)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)  # measure this workspace (internal)
    parser.add_argument("--child-annotation", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--child-effort", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.max_steps = args.max_steps or (3 if args.quick else 10)
    args.repeats = args.repeats or (2 if args.quick else 3)
    args.annotation_trajectories = args.annotation_trajectories or (40 if args.quick else 1000)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child, args.repeats)))
        return 0
    if args.child_annotation:
        print(json.dumps(measure_annotation_workspace(args.child_annotation, args.repeats + 2)))
        return 0
    if args.child_effort:
        print(json.dumps(measure_effort_workspace(args.child_effort)))
        return 0
    if args.workdir:
        args.workdir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bench-gui-", dir=args.workdir))
    try:
        started = time.perf_counter()
        log(f"building {args.trajectories} trajectories (1-{args.max_steps} steps each) in {work}")
        made = build(work / "data", args.trajectories, args.max_steps)
        build_s = time.perf_counter() - started
        log(f"built {made} in {build_s:.1f} s; measuring in a fresh process")
        command = [sys.executable, __file__, "--child", str(work / "data"), "--repeats", str(args.repeats)]
        done = subprocess.run(command, check=True, capture_output=True, text=True, env={**os.environ})
        figures = {**{f"n_{k}": v for k, v in made.items()}, "build_s": round(build_s, 1)}
        figures |= json.loads(done.stdout.strip().splitlines()[-1])
        log("starting the app in fresh processes until the browser has rows")
        figures |= time_process_start(work / "data", args.repeats + 1)
        made = build_annotation_workspace(work / "annotation", args.annotation_trajectories)
        log(f"built {made}; opening trajectories in a fresh process")
        command = [
            sys.executable,
            __file__,
            "--child-annotation",
            str(work / "annotation"),
            "--repeats",
            str(args.repeats),
        ]
        done = subprocess.run(command, check=True, capture_output=True, text=True, env={**os.environ})
        figures |= made | json.loads(done.stdout.strip().splitlines()[-1])
        log("counting the keys of the annotator's everyday paths in a fresh process")
        build_effort_workspace(work / "effort")
        command = [sys.executable, __file__, "--child-effort", str(work / "effort")]
        done = subprocess.run(command, check=True, capture_output=True, text=True, env={**os.environ})
        figures |= json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        if args.keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    goals = [
        {
            "name": "show_browser_ms",
            "value": figures["show_browser_ms"],
            "target": 500,
            "unit": "ms",
            "better": "lower",
        },
        {"name": "peak_rss_mib", "value": figures["peak_rss_mib"], "target": 400, "unit": "MiB", "better": "lower"},
        {
            "name": "process_to_rows_ms",
            "value": figures["process_to_rows_ms"],
            "target": 1500,
            "unit": "ms",
            "better": "lower",
        },
        {
            "name": "open_trajectory_ms",
            "value": figures["open_trajectory_ms"],
            "target": 150,
            "unit": "ms",
            "better": "lower",
        },
        {"name": "switch_step_ms", "value": figures["switch_step_ms"], "target": 50, "unit": "ms", "better": "lower"},
        {
            "name": "annotation_peak_rss_mib",
            "value": figures["annotation_peak_rss_mib"],
            "target": 400,
            "unit": "MiB",
            "better": "lower",
        },
        {
            "name": "keys_accept_step",
            "value": figures["keys_accept_step"],
            "target": 1,
            "unit": "keys",
            "better": "lower",
        },
        {
            "name": "keys_fix_click",
            "value": figures["keys_fix_click"],
            "target": 2,
            "unit": "clicks and keys",
            "better": "lower",
        },
        {
            "name": "keys_five_step_trajectory",
            "value": figures["keys_five_step_trajectory"],
            "target": 7,
            "unit": "keys",
            "better": "lower",
        },
    ]
    print(json.dumps({"bench": "gui", "machine": machine(), "figures": figures, "goals": goals}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
