"""Work claims (storage.claims) on SQLite and PostgreSQL: a free key is taken once however many try at once, a
live holder keeps its claim, a dead one (or one whose lease ran out) loses it, and a run already done is not
claimed again."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import timedelta

import psutil
import pytest
from sqlalchemy import select

from annotator.domain.trajectory import CollectorKind, TrajectoryStatus
from annotator.storage import claims, collection
from annotator.storage.models_team import WorkClaim
from annotator.storage.owners import Owner, this_process
from annotator.storage.workspace import Workspace
from tests.storage.test_run_owners import ended_process

RACERS = 6


@pytest.fixture
def live_other() -> Iterator[Owner]:
    """Another live process on this host."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield Owner(socket.gethostname(), process.pid, psutil.Process(process.pid).create_time())
    process.kill()
    process.wait()


def holder(workspace: Workspace, key: str) -> tuple[str | None, int | None] | None:
    with workspace.database.session() as session:
        row = session.get(WorkClaim, key)
        return None if row is None else (row.owner_host, row.owner_pid)


def test_a_live_holder_keeps_its_claim_until_it_releases_it(workspace: Workspace, live_other: Owner) -> None:
    db = workspace.database
    assert claims.take(db, "k", owner=live_other).claim is not None
    refused = claims.take(db, "k")
    assert refused.claim is None and f"pid {live_other.pid} on {live_other.host} is on it" in refused.why
    mine = claims.take(db, "mine").claim
    assert mine is not None and claims.take(db, "mine").claim is None  # this process's own claim is held too
    claims.release(db, claims.Claim("k", live_other))
    assert claims.take(db, "k").claim is not None and holder(workspace, "k") == (
        socket.gethostname(),
        this_process().pid,
    )


@pytest.mark.parametrize("holder_is", ["dead here", "lease ran out", "silent elsewhere"])
def test_a_claim_whose_holder_is_gone_is_taken_over(workspace: Workspace, live_other: Owner, holder_is: str) -> None:
    db = workspace.database
    if holder_is == "dead here":
        owner, lease, why = Owner(socket.gethostname(), *ended_process()), claims.LEASE, "is gone"
    elif holder_is == "lease ran out":
        owner, lease, why = live_other, timedelta(seconds=-1), "its lease ran out"
    else:
        owner, lease, why = Owner("elsewhere", 4242, 1.0), timedelta(seconds=-1), "its lease ran out"
    stale = claims.Claim("k", owner)
    assert claims.take(db, "k", owner=owner, lease=lease).claim == stale
    taken = claims.take(db, "k")
    assert taken.claim is not None and taken.taken_over is not None and why in taken.taken_over
    assert not claims.renew(db, stale)  # the old holder finds it lost ...
    claims.release(db, stale)  # ... and its release leaves the new holder's claim alone
    assert holder(workspace, "k") == (socket.gethostname(), this_process().pid)


def test_a_claim_on_another_host_within_its_lease_is_left_alone(workspace: Workspace) -> None:
    claims.take(workspace.database, "k", owner=Owner("elsewhere", 4242, 1.0))
    assert "pid 4242 on elsewhere is on it" in claims.take(workspace.database, "k").why


def racers_taking(workspace: Workspace, key: str) -> int:
    """How many of RACERS live owners (on other hosts, within their lease), all trying at once, got the key."""
    owners = [Owner(f"racer-{number}", number, 1.0) for number in range(RACERS)]
    start, taken = threading.Barrier(RACERS), []

    def race(owner: Owner) -> None:
        start.wait()
        if claims.take(workspace.database, key, owner=owner).claim is not None:
            taken.append(owner)

    threads = [threading.Thread(target=race, args=(owner,)) for owner in owners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(taken)


@pytest.mark.slow
def test_of_processes_trying_at_once_one_takes_a_key(workspace: Workspace) -> None:
    """Free, then held by a dead process: each time exactly one of the racers gets it."""
    assert racers_taking(workspace, "free") == 1
    claims.take(workspace.database, "left", owner=Owner(socket.gethostname(), *ended_process()))
    assert racers_taking(workspace, "left") == 1


def test_a_run_already_collected_is_not_claimed(workspace: Workspace) -> None:
    db = workspace.database
    instruction = collection.add_instruction(db, "设置", "打开蓝牙")
    run = collection.start_trajectory(db, instruction, collection.Collector(CollectorKind.HUMAN))
    collection.finish_trajectory(db, run, TrajectoryStatus.COMPLETE)
    done = claims.take_collect_run(db, instruction, 1)
    assert done.claim is None and done.why == "it has 1 complete run already"
    assert holder(workspace, claims.collect_key(instruction, 1)) is None  # nothing left behind
    second = claims.take_collect_run(db, instruction, 2).claim
    assert second is not None and second.key == f"collect:{instruction}:2"


def test_holding_renews_the_lease_and_releases_at_the_end(workspace: Workspace) -> None:
    db = workspace.database
    claim = claims.take(db, "k", lease=timedelta(seconds=2)).claim
    assert claim is not None

    def lease_until() -> object:
        with db.session() as session:
            return session.scalar(select(WorkClaim.lease_until).where(WorkClaim.work_key == "k"))

    first = lease_until()
    with claims.Holding(db, claim, every_s=0.05):
        deadline = time.monotonic() + 10
        while lease_until() == first:
            assert time.monotonic() < deadline, "the lease was not renewed"
            time.sleep(0.05)
    assert holder(workspace, "k") is None
