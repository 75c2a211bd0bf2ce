"""Jobs run off the GUI thread; results and errors come back on it; a queue keeps its order."""

from __future__ import annotations

import threading
import time

from pytestqt.qtbot import QtBot

from annotator.ui.app import AnnotatorApp
from annotator.ui.workers import Jobs


def test_result_arrives_on_the_gui_thread_from_another_thread(qtbot: QtBot, qapp: AnnotatorApp) -> None:
    jobs = Jobs()
    seen: dict[str, object] = {}

    def work() -> int:
        seen["worker"] = threading.current_thread()
        return 42

    def show(value: int) -> None:
        seen["value"], seen["gui"] = value, threading.current_thread()

    with qtbot.waitSignal(jobs.busy_changed, check_params_cb=lambda busy: not busy):
        jobs.submit("Answering", work, on_result=show)
    assert seen["value"] == 42
    assert seen["gui"] is threading.main_thread() and seen["worker"] is not threading.main_thread()
    assert not jobs.busy()


def test_an_error_is_announced_and_handed_to_the_caller(qtbot: QtBot, qapp: AnnotatorApp) -> None:
    jobs = Jobs()
    handled: list[BaseException] = []
    with qtbot.waitSignal(jobs.failed) as failed:
        jobs.submit("Reading the phone", lambda: {}["serial"], on_error=handled.append)
    assert failed.args == ["Reading the phone", "'serial'"]
    qtbot.waitUntil(lambda: len(handled) == 1)
    assert isinstance(handled[0], KeyError)

    def silent() -> None:
        raise RuntimeError

    with qtbot.waitSignal(jobs.failed) as failed:
        jobs.submit("Nothing to say", silent)
    assert failed.args == ["Nothing to say", "RuntimeError"]  # an empty message still says what happened


def test_jobs_on_one_queue_run_one_at_a_time_in_order(qtbot: QtBot, qapp: AnnotatorApp) -> None:
    jobs = Jobs(max_threads=4)
    order: list[str] = []
    running = threading.Semaphore(1)
    overlapped: list[bool] = []

    def step(name: str) -> str:
        overlapped.append(not running.acquire(blocking=False))
        time.sleep(0.02)
        order.append(name)
        running.release()
        return name

    done: list[str] = []
    for name in "abcde":
        jobs.submit(f"step {name}", lambda n=name: step(n), on_result=done.append, queue="virtual-1")
    qtbot.waitUntil(lambda: len(done) == 5)
    assert order == done == list("abcde") and not any(overlapped)
