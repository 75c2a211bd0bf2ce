"""bench/run_all.py's verdicts on canned bench output (the real benches run in test_bench_scripts.py)."""

from __future__ import annotations

import json
import sys

import pytest

from bench.run_all import (
    BENCH_ARGS,
    BENCH_DIR,
    BenchRun,
    bench_command,
    bench_scripts,
    exit_status,
    last_json_line,
    report_lines,
    results_document,
)

STORE = {
    "bench": "store",
    "machine": {"cpu_count": 2},
    "figures": {"import_s": 1.2},
    "goals": [
        {"name": "import_vs_copy", "value": 2.5, "target": 2.0, "unit": "x", "better": "lower"},
        {"name": "export_vs_copy", "value": 2.0, "target": 2.0, "unit": "x", "better": "lower"},
    ],
}
REWARDS = {
    "bench": "rewards",
    "machine": {},
    "figures": {},
    "goals": [{"name": "format_per_s", "value": 9000.0, "target": 10000, "unit": "1/s", "better": "higher"}],
}
NO_SERVER = {"bench": "team_checks", "machine": {}, "figures": {"skipped": "no PostgreSQL server"}, "goals": []}


def canned_runs() -> list[BenchRun]:
    return [
        BenchRun("store", 3.0, result=last_json_line("progress\n" + json.dumps(STORE))),
        BenchRun("rewards", 1.0, result=REWARDS),
        BenchRun("team_checks", 0.5, result=NO_SERVER),
        BenchRun("gui", 9.0, failure="exit status 1: RuntimeError: no display"),
    ]


def test_a_goal_not_met_is_missed_and_a_crash_failed() -> None:
    runs = canned_runs()
    lines = report_lines(runs)
    assert lines[0].split() == ["bench", "goal", "value", "target", "unit", "met"]
    assert lines[1].split() == ["store", "import_vs_copy", "2.5", "<=", "2.0", "x", "NO"]
    assert lines[2].split() == ["store", "export_vs_copy", "2.0", "<=", "2.0", "x", "yes"]  # equal to the target is met
    assert lines[3].split() == ["rewards", "format_per_s", "9000.0", ">=", "10000", "1/s", "NO"]
    assert lines[4:] == [
        "MISSED store.import_vs_copy: 2.5 (goal <= 2.0)",
        "MISSED rewards.format_per_s: 9000.0 (goal >= 10000)",
        "SKIPPED team_checks: no PostgreSQL server",
        "FAILED gui: exit status 1: RuntimeError: no display",
    ]
    assert exit_status(lines) == 1
    document = results_document(runs, {"cpu_count": 2}, quick=False)
    assert document["goals_judged"] is True and document["total_s"] == 13.5
    assert document["failures"] == {"gui": "exit status 1: RuntimeError: no display"}
    assert document["benches"]["store"]["figures"] == {"import_s": 1.2} and document["benches"]["gui"] == {
        "wall_s": 9.0
    }


def test_at_quick_sizes_the_goals_are_smoke_and_only_a_failure_fails() -> None:
    runs = canned_runs()
    lines = report_lines(runs, smoke=True)
    assert lines[0].startswith("--quick: smoke sizes") and "not judged" in lines[0]
    assert lines[2].split() == ["store", "import_vs_copy", "2.5", "<=", "2.0", "x", "smoke"]
    assert lines[3].split()[-1] == "yes"
    assert not any(line.startswith("MISSED") for line in lines)
    assert lines[5:] == [
        "SMOKE store.import_vs_copy: 2.5 (goal <= 2.0)",
        "SMOKE rewards.format_per_s: 9000.0 (goal >= 10000)",
        "SKIPPED team_checks: no PostgreSQL server",
        "FAILED gui: exit status 1: RuntimeError: no display",
    ]
    assert exit_status(lines) == 1  # a crash fails a smoke run too
    passing = report_lines(runs[:3], smoke=True)
    assert exit_status(passing) == 0  # goals missed at smoke sizes do not
    assert results_document(runs, {}, quick=True)["goals_judged"] is False


def test_a_goal_never_reached_is_missed() -> None:
    never = {"name": "seconds_to_0.9_step_accuracy", "value": None, "target": 300, "unit": "s", "better": "lower"}
    lines = report_lines([BenchRun("learn", 1.0, result={"figures": {}, "goals": [never]})])
    assert lines[1].split()[-1] == "NO" and lines[-1] == "MISSED learn.seconds_to_0.9_step_accuracy: None (goal <= 300)"


def test_the_default_run_adds_each_bench_s_arguments_and_quick_only_quick() -> None:
    scale, store = BENCH_DIR / "scale.py", BENCH_DIR / "store.py"
    assert bench_command(scale, quick=False) == [sys.executable, str(scale), "--sizes", "10000,100000"]
    assert bench_command(scale, quick=True) == [sys.executable, str(scale), "--quick"]
    assert bench_command(store, quick=False) == [sys.executable, str(store), *BENCH_ARGS.get("store", ())]
    assert set(BENCH_ARGS) <= {script.stem for script in bench_scripts()}  # no arguments for a bench that is gone


@pytest.mark.parametrize("stdout", ["", "Traceback ...\n", '{"bench": "x"}'])
def test_output_without_a_result_line_is_refused(stdout: str) -> None:
    with pytest.raises(ValueError):
        last_json_line(stdout)


def test_helpers_are_not_benches() -> None:
    names = {script.stem for script in bench_scripts()}
    assert {"store", "gui", "judge", "train"} <= names
    assert not names & {"common", "labelled", "gui_start", "gui_effort", "judge_endpoint", "run_all"}
