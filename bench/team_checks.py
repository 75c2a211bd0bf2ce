"""Benchmark what a team database's own checks cost (docs/adr/0011): the triggers on every write, the row security
on judge scores.

On a PostgreSQL server (ANNOTATOR_BENCH_POSTGRES_URL, else ANNOTATOR_TEST_POSTGRES_URL: a superuser's URL where a
database and logins may be made; without one the bench says so and measures nothing), makes a workspace with
trajectories of labelled steps and a judge score each, an annotator's and a rater's own logins (with
`services.team.add_person`, as `annotator people add --login` does) and a study the rater has not finished. Then
times, in the same run:
- label saves (`storage.labels.update_label`, one transaction each): as the tables' owner with the checks switched
  off (the baseline: no checks at all), as the owner with them on, and as the annotator's own login, whom every
  trigger checks;
- reading every judge score: as the owner, and as the rater, whose open study's scores row security hides.
Prints one JSON object last (figures, goals).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import common
from common import run_in_workdir
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import studies, team
from annotator.storage import collection, judging, labels
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace

GUARDED = ("label_revisions", "trajectories", "people")
WARM_UP = 10
ROUNDS = 3


def server_url() -> str | None:
    return os.environ.get("ANNOTATOR_BENCH_POSTGRES_URL") or os.environ.get("ANNOTATOR_TEST_POSTGRES_URL") or None


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


def timed(repeats: int, action: Callable[[int], None]) -> float:
    """Median milliseconds of `action(n)` over `repeats` calls, after a few to warm the connection and caches."""
    for n in range(WARM_UP):
        action(n)
    times = []
    for n in range(repeats):
        started = time.perf_counter()
        action(n)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def populate(workspace: Workspace, trajectories: int, steps: int) -> list[int]:
    """Trajectories of `steps` steps each, a judge score each; the step ids."""
    db = workspace.database
    config = judging.ensure_config(db, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    collection.save_device(db, "bench-1", {"model": "bench"}, app_packages={"淘宝": "com.taobao"})
    step_ids = []
    png = common.render_screen(1, 216, 480)
    for t in range(trajectories):
        instruction = collection.add_instruction(db, "淘宝", f"任务 {t}")
        trajectory = collection.start_trajectory(
            db, instruction, collection.Collector("agent", agent_model="m"), device_serial="bench-1", settings={}
        )
        for _ in range(steps):
            observed = collection.Observation(
                png,
                {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [10, 20]}},
                package="com.taobao",
            )
            step_ids.append(collection.record_step(db, workspace.blobs, trajectory, observed))
        judging.save_score(db, config, None, trajectory, ScoreRecord(t % 5, "理由", "{}", None, None, 1.0, 1))
    return step_ids


def people_and_study(workspace: Workspace, suffix: str) -> dict[str, tuple[str, str]]:
    """The annotator's and the rater's logins (name -> (login, password)), and an open study the rater rates."""
    made = {}
    team.add_person(workspace, "主管", "admin", by=None)
    for name, role in (("小王", "annotator"), ("小李", "annotator")):
        login, password = f"b{suffix}_{len(made)}", uuid.uuid4().hex
        team.add_person(workspace, name, role, by=None, login=login, password=password)
        made[name] = (login, password)
    studies.create_study(workspace.database, "试点", 1, 20, ["小李"])
    return made


def url_for(base: str, login: str, password: str) -> str:
    return make_url(base).set(username=login, password=password).render_as_string(hide_password=False)


def measure(work: Path, base: str, args: argparse.Namespace) -> dict[str, Any]:
    suffix = uuid.uuid4().hex[:8]
    name = f"bench_team_{suffix}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = make_url(base).set(database=name).render_as_string(hide_password=False)
    logins: dict[str, tuple[str, str]] = {}
    try:
        with Workspace.open(work, url) as owner:
            step_ids = populate(owner, args.trajectories, args.steps)
            logins = people_and_study(owner, suffix)
        figures = saves_and_reads(work, url, logins, step_ids, args.repeats)
    finally:
        drop(admin, url, name, [login for login, _ in logins.values()] + [f"{name}_people"])
    return figures | {"trajectories": args.trajectories, "steps": len(step_ids), "repeats": args.repeats}


def saves_and_reads(work: Path, url: str, logins: dict[str, tuple[str, str]], step_ids: list[int], repeats: int):
    def saver(workspace: Workspace, person: str) -> Callable[[int], None]:
        return lambda n: labels.update_label(
            workspace.database, step_ids[n % len(step_ids)], {"think": f"第 {n} 次"}, person=person
        )

    def reader(workspace: Workspace) -> Callable[[int], None]:
        def read(_n: int) -> None:
            with workspace.database.engine.connect() as connection:
                connection.execute(text("SELECT trajectory_id, reward FROM judge_scores")).all()

        return read

    rounds: dict[str, list[float]] = {"save_ms_no_checks": [], "save_ms_owner": [], "save_ms_annotator_login": []}
    with Workspace.open(work, url) as owner, Workspace.open(work, url_for(url, *logins["小王"])) as annotator:
        for _ in range(ROUNDS):  # alternated, so that a machine's drift falls on each alike
            switch_checks(owner, "DISABLE")
            rounds["save_ms_no_checks"].append(timed(repeats, saver(owner, "小王")))
            switch_checks(owner, "ENABLE")
            rounds["save_ms_owner"].append(timed(repeats, saver(owner, "小王")))
            rounds["save_ms_annotator_login"].append(timed(repeats, saver(annotator, "小王")))
        figures = {key: statistics.median(values) for key, values in rounds.items()}
        figures["read_scores_ms_owner"] = timed(repeats, reader(owner))
    with Workspace.open(work, url_for(url, *logins["小李"])) as rater:
        figures["read_scores_ms_rater_login"] = timed(repeats, reader(rater))
    return {key: round(value, 2) for key, value in figures.items()}


def switch_checks(workspace: Workspace, how: str) -> None:
    with workspace.database.engine.begin() as connection:
        for table in GUARDED:
            connection.exec_driver_sql(f"ALTER TABLE {table} {how} TRIGGER annotator_guard")


def drop(admin, url: str, name: str, roles: list[str]) -> None:
    owned = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with owned.connect() as connection:
        existing = {row[0] for row in connection.exec_driver_sql("SELECT rolname FROM pg_roles")}
        present = [f'"{role}"' for role in roles if role in existing]
        if present:
            connection.exec_driver_sql(f"DROP OWNED BY {', '.join(present)}")
    owned.dispose()
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
        for role in present:
            connection.exec_driver_sql(f"DROP ROLE {role}")
    admin.dispose()


def goals(figures: dict[str, Any]) -> list[dict[str, Any]]:
    """A checked save costs at most half again an unchecked one; row security adds a fixed cost to a rater's read of
    the scores (the open studies' trajectories, found once per query), not one per row."""
    if "save_ms_annotator_login" not in figures:
        return []
    save = figures["save_ms_annotator_login"] / figures["save_ms_no_checks"]
    read = figures["read_scores_ms_rater_login"] - figures["read_scores_ms_owner"]
    return [
        {"name": "checked_save_vs_unchecked", "value": round(save, 2), "target": 1.5, "unit": "x", "better": "lower"},
        {"name": "rater_read_overhead_ms", "value": round(read, 2), "target": 20.0, "unit": "ms", "better": "lower"},
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Fewer rows and repeats (a smoke run).")
    parser.add_argument("--trajectories", type=int, default=None)
    parser.add_argument("--steps", type=int, default=10, help="Steps per trajectory.")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args(argv)
    args.trajectories = args.trajectories or (40 if args.quick else 400)
    args.repeats = args.repeats or (30 if args.quick else 300)
    base = server_url()

    def run(work: Path) -> dict[str, Any]:
        if base is None:
            log("no PostgreSQL server: set ANNOTATOR_BENCH_POSTGRES_URL (a superuser's URL); nothing measured")
            figures: dict[str, Any] = {"skipped": "no PostgreSQL server"}
        else:
            figures = measure(work, base, args)
        return {"bench": "team_checks", "machine": common.machine(), "figures": figures, "goals": goals(figures)}

    return run_in_workdir("team-checks", args.workdir, args.keep, run, log)


if __name__ == "__main__":
    sys.exit(main())
