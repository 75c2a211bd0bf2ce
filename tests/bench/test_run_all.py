"""bench/run_all.py's verdicts on canned bench output (the real benches run in test_bench_scripts.py)."""

from __future__ import annotations

import json

import pytest

from bench.run_all import BenchRun, bench_scripts, last_json_line, report_lines, results_document

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


def test_a_goal_not_met_is_missed_and_a_crash_failed() -> None:
    runs = [
        BenchRun("store", 3.0, result=last_json_line("progress\n" + json.dumps(STORE))),
        BenchRun("rewards", 1.0, result=REWARDS),
        BenchRun("gui", 9.0, failure="exit status 1: RuntimeError: no display"),
    ]
    lines = report_lines(runs)
    assert lines[0].split() == ["bench", "goal", "value", "target", "unit", "met"]
    assert lines[1].split() == ["store", "import_vs_copy", "2.5", "<=", "2.0", "x", "NO"]
    assert lines[2].split() == ["store", "export_vs_copy", "2.0", "<=", "2.0", "x", "yes"]  # equal to the target is met
    assert lines[3].split() == ["rewards", "format_per_s", "9000.0", ">=", "10000", "1/s", "NO"]
    assert lines[4:] == [
        "MISSED store.import_vs_copy: 2.5 (goal <= 2.0)",
        "MISSED rewards.format_per_s: 9000.0 (goal >= 10000)",
        "FAILED gui: exit status 1: RuntimeError: no display",
    ]
    document = results_document(runs, {"cpu_count": 2}, quick=True)
    assert document["failures"] == {"gui": "exit status 1: RuntimeError: no display"}
    assert document["benches"]["store"]["figures"] == {"import_s": 1.2} and document["benches"]["gui"] == {
        "wall_s": 9.0
    }


@pytest.mark.parametrize("stdout", ["", "Traceback ...\n", '{"bench": "x"}'])
def test_output_without_a_result_line_is_refused(stdout: str) -> None:
    with pytest.raises(ValueError):
        last_json_line(stdout)


def test_helpers_are_not_benches() -> None:
    names = {script.stem for script in bench_scripts()}
    assert {"store", "gui", "judge", "train"} <= names
    assert not names & {"common", "labelled", "gui_start", "gui_effort", "judge_endpoint", "run_all"}
