"""Dealing work out to phones: one worker per phone takes items from one shared queue.

Collection on many phones (`annotator.services.parallel_collecting`), online evaluation and GRPO rollouts
(`trainer_bridge`) deal their runs the same way, with a :class:`Dealer`:

- a worker takes the next item (`take`) and gives it back when done (`release`);
- a worker whose phone went away releases its item with `lost=why`: the item goes to the front of the queue for
  the other phones, and the phone is reported;
- a worker that finds the queue empty waits while items are in flight on other phones, since a phone that goes
  away hands its item back and someone must be there to take it;
- `stop` (the user's Ctrl+C or Stop button) ends the dealing: no item is taken any more; `close(why)` does the
  same for a reason of the run's own (the model's endpoint keeps failing), and remembers the reason.

:func:`work_through` is one phone's loop over the queue.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

Item = TypeVar("Item")


class Dealer(Generic[Item]):
    """The shared queue of items and who holds what; every method is safe from any thread."""

    def __init__(self, items: Iterable[Item], stop: threading.Event | None = None) -> None:
        self.queue: deque[Item] = deque(items)
        self.stop = stop or threading.Event()
        self.changed = threading.Condition()
        self.in_flight = 0
        self.lost: list[str] = []  # "serial (why)" of each phone that went away, in order
        self.closed: str | None = None  # why no more items are dealt, when the run closed the queue

    def take(self) -> Item | None:
        """The next item, or None when there is none left for this worker (it should end)."""
        with self.changed:
            while not self.queue and self.in_flight and not self._ended():
                self.changed.wait()
            if self._ended() or not self.queue:
                return None
            self.in_flight += 1
            return self.queue.popleft()

    def release(self, item: Item, *, lost: str | None = None, serial: str = "") -> None:
        """The item is done with; with `lost`, its phone went away and the item goes back for the others."""
        with self.changed:
            self.in_flight -= 1
            if lost is not None:
                self.queue.appendleft(item)
                self.lost.append(f"{serial} ({lost})")
            self.changed.notify_all()

    def close(self, why: str) -> None:
        """Deal nothing more (the items in flight finish); the first reason given is kept."""
        with self.changed:
            if self.closed is None:
                self.closed = why
            self.changed.notify_all()

    def halt(self) -> None:
        """Stop every worker: those in a run between its steps (through `stop`), those waiting at once."""
        with self.changed:
            self.stop.set()
            self.changed.notify_all()

    def left(self) -> list[Item]:
        """The items not dealt (or handed back and not taken again)."""
        with self.changed:
            return list(self.queue)

    def _ended(self) -> bool:
        return self.stop.is_set() or self.closed is not None


def work_through(dealer: Dealer[Item], serial: str, do: Callable[[Item], str | None]) -> None:
    """One phone's worker: `do(item)` for each item it takes, until none is left for it or its phone is lost.

    `do` returns why the phone cannot go on (its item then goes back to the queue), or None. An exception from
    `do` releases the item (not handed back: a bug must not loop over the phones) and propagates."""
    while (item := dealer.take()) is not None:
        lost: str | None = None
        try:
            lost = do(item)
        finally:
            dealer.release(item, lost=lost, serial=serial)
        if lost is not None:
            return
