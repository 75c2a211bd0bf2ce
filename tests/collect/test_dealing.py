"""The shared queue that deals runs to phones (collection, online evaluation and GRPO rollouts use it)."""

from __future__ import annotations

import threading

from annotator.collect.dealing import Dealer, work_through


def kept_in(seen: list, name: str = ""):
    """A worker's `do` that notes each item (with the worker's name, when given) and goes on."""

    def do(item: int) -> str | None:
        seen.append((name, item) if name else item)
        return None

    return do


def test_a_lost_phones_item_goes_to_a_worker_that_waited_for_it() -> None:
    dealer: Dealer[str] = Dealer(["a", "b"])
    first, second = dealer.take(), dealer.take()
    taken: list[str | None] = []
    waiting = threading.Thread(target=lambda: taken.append(dealer.take()))
    waiting.start()  # the queue is empty, but "a" is in flight: this worker must wait, not end
    dealer.release("b", serial="phone-2")
    dealer.release("a", lost="unplugged", serial="phone-1")
    waiting.join(10)
    assert (first, second, taken, dealer.lost) == ("a", "b", ["a"], ["phone-1 (unplugged)"])
    dealer.release("a", serial="phone-3")
    assert dealer.take() is None and dealer.left() == []


def test_a_closed_or_stopped_dealer_deals_nothing_more_and_keeps_what_is_left() -> None:
    done: list[int] = []
    dealer: Dealer[int] = Dealer(range(5))

    def do(item: int) -> str | None:
        done.append(item)
        if item == 1:
            dealer.close("the model's endpoint failed")
        return None

    work_through(dealer, "phone-1", do)
    assert done == [0, 1] and dealer.left() == [2, 3, 4] and dealer.closed == "the model's endpoint failed"
    stopped: Dealer[int] = Dealer(range(3))
    stopped.halt()
    work_through(stopped, "phone-1", kept_in(done))
    assert done == [0, 1] and stopped.left() == [0, 1, 2]


def test_a_phone_that_goes_away_stops_its_worker_and_hands_its_item_back() -> None:
    dealer: Dealer[int] = Dealer(range(3))
    seen: list[tuple[str, int]] = []

    def flaky(item: int) -> str | None:
        seen.append(("flaky", item))
        return "adb gone"

    work_through(dealer, "flaky", flaky)
    work_through(dealer, "steady", kept_in(seen, "steady"))
    assert seen == [("flaky", 0), ("steady", 0), ("steady", 1), ("steady", 2)] and dealer.lost == ["flaky (adb gone)"]
