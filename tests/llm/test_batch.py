"""The batch engine with plain functions and with the real openai client against a loopback server: counting,
resuming, concurrency, ending on an endpoint that stays down or refuses, cancelling and Ctrl+C."""

from __future__ import annotations

import threading

import pytest

from annotator.llm.batch import (
    UNAVAILABLE_IN_A_ROW,
    BatchResult,
    Outcome,
    Progress,
    StopBatch,
    failed_request,
    run_batch,
)
from annotator.llm.client import LLMClient, LLMConfig, LLMError
from tests.chat_server import ChatServer, Reply, Seen, chat_completion, error_body

HELLO = [{"role": "user", "content": "你好"}]


def by_parity(item: int) -> Outcome[str]:
    """Even items done (multiples of 4 counted as "round"), odd ones failed, 9 skipped."""
    if item == 9:
        return Outcome.skipped(f"skipped {item}")
    if item % 2:
        return Outcome.failed(f"{item} is odd", f"failed {item}")
    return Outcome.done(f"done {item}", {"round": 1} if item % 4 == 0 else None)


def asking(client: LLMClient):
    """Work that sends one request per item: its reply as the value, or the client's failure."""

    def ask(item: int) -> Outcome[str]:
        try:
            return Outcome.done(client.complete(HELLO).text)
        except LLMError as error:
            return failed_request(error, f"item {item}")

    return ask


def config(server: ChatServer) -> LLMConfig:
    return LLMConfig(server.base_url, "test-model", max_retries=0, timeout_s=5)


def test_every_item_is_counted_by_its_outcome_with_the_reasons_of_the_failures() -> None:
    seen: list[Progress[int, str]] = []
    result = run_batch(range(10), by_parity, workers=1, on_progress=seen.append)
    tally = result.tally
    assert (tally.done, tally.succeeded, tally.failed, tally.skipped) == (10, 5, 4, 1)
    assert dict(tally.counts) == {"round": 3}  # 0, 4 and 8
    assert result.failures == [(1, "1 is odd"), (3, "3 is odd"), (5, "5 is odd"), (7, "7 is odd")]
    assert (result.status, result.message, result.total, result.resumed) == ("complete", None, 10, 0)
    assert [p.tally.done for p in seen] == list(range(1, 11)) and seen[-1].total == 10
    assert [(p.item, p.outcome.value) for p in seen[:2]] == [(0, "done 0"), (1, "failed 1")]


def test_items_the_caller_says_are_done_are_not_handed_out() -> None:
    handed: list[int] = []

    def work(item: int) -> Outcome[None]:
        handed.append(item)
        return Outcome.done()

    result = run_batch([1, 2, 3, 4, 5], work, workers=2, already_done={2, 4}.__contains__)
    assert sorted(handed) == [1, 3, 5]
    assert (result.total, result.resumed, result.tally.done, result.status) == (3, 2, 3, "complete")


def test_the_workers_run_at_once() -> None:
    together = threading.Barrier(3, timeout=10)  # broken (an error) unless three items run at the same time

    def wait_for_the_others(item: int) -> Outcome[None]:
        together.wait()
        return Outcome.done()

    result = run_batch(range(3), wait_for_the_others, workers=3)
    assert result.tally.succeeded == 3 and result.interrupted is None


def test_an_endpoint_that_stays_down_ends_the_batch_and_says_so() -> None:
    with ChatServer([Reply(500, error_body("boom", "server_error"))]) as server, LLMClient(config(server)) as client:
        result = run_batch(range(10), asking(client), workers=1, endpoint="the test endpoint")
        asked = len(server.seen)
    assert asked == UNAVAILABLE_IN_A_ROW == result.tally.failed
    assert result.status == "failed" and result.total == 10
    assert result.message is not None and result.message.startswith("the test endpoint stayed unavailable: ")
    assert "500" in result.message and len(result.failures) == 3


def test_an_answer_between_failures_starts_the_count_again() -> None:
    replies = [Reply(500, error_body("boom", "server_error"))] * 2 + [Reply(body=chat_completion("好"))]
    replies = replies * 3 + [Reply(500, error_body("boom", "server_error"))]  # then down for good
    with ChatServer(replies) as server, LLMClient(config(server)) as client:
        result = run_batch(range(20), asking(client), workers=1)
    assert (result.tally.succeeded, result.tally.failed, result.status) == (3, 9, "failed")


def test_with_more_workers_it_takes_as_many_in_a_row() -> None:
    with ChatServer([Reply(503, error_body("busy", "server_error"))]) as server, LLMClient(config(server)) as client:
        result = run_batch(range(30), asking(client), workers=5)
    assert result.status == "failed" and 5 <= result.tally.failed < 30  # those in flight finish after the fifth


def test_a_refused_key_ends_the_batch_at_once() -> None:
    with ChatServer([Reply(401, error_body("bad key", "authentication_error"))]) as server:
        with LLMClient(config(server)) as client:
            result = run_batch(range(5), asking(client), workers=1, endpoint="the judge endpoint")
        asked = len(server.seen)
    assert asked == 1 and result.tally.failed == 1 and result.status == "failed"
    assert result.message is not None and result.message.startswith("the judge endpoint refused the request: ")


def test_stop_batch_ends_it_without_counting_the_item() -> None:
    def refuse_the_third(item: int) -> Outcome[None]:
        if item == 2:
            raise StopBatch("the policy refused the request: no such model")
        return Outcome.done()

    result = run_batch(range(6), refuse_the_third, workers=1)
    assert (result.tally.done, result.status) == (2, "failed")
    assert result.message == "the policy refused the request: no such model"


def test_cancel_lets_the_items_in_flight_finish_and_starts_no_more() -> None:
    cancel = threading.Event()

    def cancel_after_two(progress: Progress[int, str]) -> None:
        if progress.tally.done == 2:
            cancel.set()

    result = run_batch(range(8), by_parity, workers=1, cancel=cancel, on_progress=cancel_after_two)
    assert (result.tally.done, result.status, result.message) == (2, "stopped", None)


def test_ctrl_c_is_handed_back_with_what_was_done() -> None:
    def interrupt(_progress: Progress[int, str]) -> None:
        raise KeyboardInterrupt

    result = run_batch(range(8), by_parity, workers=1, on_progress=interrupt)
    assert result.tally.done <= 2 and result.status == "stopped"  # the one worker may have started the next
    assert result.message == "interrupted: KeyboardInterrupt()"
    with pytest.raises(KeyboardInterrupt):
        result.raise_interruption()


def test_an_error_in_the_work_ends_the_batch_as_failed() -> None:
    def broken(item: int) -> Outcome[None]:
        if item == 1:
            raise RuntimeError("a bug")
        return Outcome.done()

    result: BatchResult[int] = run_batch(range(5), broken, workers=1)
    assert result.status == "failed" and isinstance(result.interrupted, RuntimeError)
    assert result.message == "interrupted: RuntimeError('a bug')" and result.tally.done == 1
    with pytest.raises(RuntimeError, match="a bug"):
        result.raise_interruption()


def test_requests_of_many_workers_are_all_answered() -> None:
    def echo(seen: Seen) -> Reply:
        return Reply(body=chat_completion(seen.body["messages"][0]["content"]))

    with ChatServer([], respond=echo) as server, LLMClient(config(server)) as client:
        result = run_batch(range(12), asking(client), workers=4)
        asked = len(server.seen)
    assert asked == result.tally.succeeded == 12 and result.status == "complete"


def test_bad_arguments_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="workers: at least 1, got 0"):
        run_batch([1], by_parity, workers=0)
    with pytest.raises(ValueError, match="needs its reason"):
        Outcome.failed("")
    with pytest.raises(ValueError, match="outcome state 'maybe'"):
        Outcome("maybe")
