"""The benchmarks run end to end and print the JSON object of docs/architecture.md#benchmarks (no timing asserts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "bench" / "store.py"


def test_store_bench_prints_figures_and_goals_as_its_last_line(tmp_path: Path) -> None:
    command = [sys.executable, str(BENCH), "--quick", "--steps", "12", "--repeats", "1", "--no-zip"]
    done = subprocess.run([*command, "--workdir", str(tmp_path)], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "store"
    assert {"platform", "python", "cpu_count"} <= result["machine"].keys()
    figures = result["figures"]
    assert figures["n_steps"] == 12
    assert figures["n_blobs"] > 12  # a screenshot per step and most hierarchies
    assert figures["import_s"] > 0 and figures["export_s"] > 0 and figures["copy_s"] > 0
    assert [goal["name"] for goal in result["goals"]] == ["import_vs_copy", "export_vs_copy"]
    for goal in result["goals"]:
        assert goal["value"] > 0 and goal["target"] == 2.0 and goal["better"] == "lower"
    assert list(tmp_path.iterdir()) == []  # the work folder is removed unless --keep


def test_virtual_phone_bench_prints_its_goals() -> None:
    script = BENCH.parent / "virtual_phone.py"
    done = subprocess.run([sys.executable, str(script), "--repeats", "2"], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "virtual_phone"
    assert result["figures"]["png_bytes"] > 10_000 and result["figures"]["adb_screencap_ms"] > 0
    assert [goal["name"] for goal in result["goals"]] == ["adb_screencap_vs_local", "endpoint_vs_local_reply"]


def test_device_bench_prints_figures_and_goals() -> None:
    script = BENCH.parent / "device.py"
    done = subprocess.run([sys.executable, str(script), "--repeats", "1"], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "device" and {"platform", "python"} <= result["machine"].keys()
    figures = result["figures"]
    assert figures["observe_ms"] > 0 and figures["observe_raw_calls_ms"] > 0 and figures["png_bytes"] > 10_000
    assert figures["faster_screenshot_method"] in ("screencap -p bytes", "screenshot()+png")
    assert [goal["name"] for goal in result["goals"]] == ["observe_vs_raw_calls", "screencap_bytes_vs_screenshot_png"]
    assert all(goal["value"] > 0 and goal["better"] == "lower" for goal in result["goals"])


def test_collect_bench_prints_the_overhead_goal() -> None:
    script = BENCH.parent / "collect.py"
    done = subprocess.run(
        [sys.executable, str(script), "--quick", "--instructions", "1", "--devices", "2"],
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    figures = result["figures"]
    assert result["bench"] == "collect" and figures["steps"] >= 2 and figures["at_2_phones"]["steps"] >= 2
    assert {"observe_total_ms_median", "decide_ms_median", "model_ms_median", "act_ms_median"} <= figures.keys()
    assert figures["own_overhead_ms_median"] > 0 and figures["wall_overhead_ratio"] > 0
    assert [goal["name"] for goal in result["goals"]] == ["overhead_ms_per_step", "overhead_2_vs_1"]


def test_gui_bench_prints_the_browser_figures_and_goals(tmp_path: Path) -> None:
    script = BENCH.parent / "gui.py"
    command = [sys.executable, str(script), "--quick", "--trajectories", "500", "--repeats", "1"]
    command += ["--annotation-trajectories", "4"]
    done = subprocess.run([*command, "--workdir", str(tmp_path)], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "gui" and {"platform", "python", "pyside6"} <= result["machine"].keys()
    figures = result["figures"]
    assert figures["n_trajectories"] == 500 and figures["n_steps"] >= 500
    assert figures["show_browser_ms"] > 0 and figures["service_first_page_ms"] > 0 and figures["peak_rss_mib"] > 0
    assert set(figures["sort_first_page_ms"]) >= {"id", "app", "steps", "labelled_by", "started"}
    assert figures["annotation_steps"] == 100 and figures["switch_step_ms"] > 0 and figures["open_trajectory_ms"] > 0
    assert figures["process_to_rows_ms"] > figures["process_to_imported_ms"] > 0
    assert figures["process_bare_qt_window_ms"] > 0 and figures["process_to_rows_vs_bare_qt"] > 0
    assert [goal["name"] for goal in result["goals"]] == [
        "show_browser_ms",
        "peak_rss_mib",
        "process_to_rows_ms",
        "open_trajectory_ms",
        "switch_step_ms",
        "annotation_peak_rss_mib",
        "keys_accept_step",
        "keys_fix_click",
        "keys_five_step_trajectory",
    ]
    assert all(goal["value"] > 0 and goal["better"] == "lower" for goal in result["goals"])
    goals = result["goals"]
    keys = {goal["name"]: (goal["value"], goal["target"]) for goal in goals if goal["name"].startswith("keys")}
    assert all(value <= target for value, target in keys.values())  # counted by driving the window
    assert figures["accept_step_ms"] > 0
    assert list(tmp_path.iterdir()) == []  # the work folder is removed unless --keep


def test_judge_bench_prints_throughput_per_concurrency_and_the_goal(tmp_path: Path) -> None:
    script = BENCH.parent / "judge.py"
    command = [sys.executable, str(script), "--quick", "--delay", "0.02", "--trajectories-per-slot", "1"]
    command += ["--steps", "1", "--full", "--workdir", str(tmp_path)]  # --full: where the time goes, too
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "judge" and {"platform", "python", "cpu_count"} <= result["machine"].keys()
    figures = result["figures"]
    assert figures["delay_s"] == 0.02 and figures["steps_per_trajectory"] == 1 and figures["images_per_request"] == 1
    for concurrency, trajectories in ((1, 8), (8, 8), (32, 32)):  # at least 8 a measurement
        assert figures[f"trajectories_c{concurrency}"] == trajectories
        assert figures[f"ideal_per_second_c{concurrency}"] == round(concurrency / 0.02, 2)
        for name in ("seconds", "per_second", "fraction_of_ideal", "cpu_s_per_trajectory", "request_kib_mean"):
            assert figures[f"{name}_c{concurrency}"] > 0, name
    assert figures["fraction_of_ideal_c32_unscaled"] > 0 and figures["fraction_of_ideal_c32_no_images"] > 0
    assert figures["one_image_urls_ms"] > 0 and figures["one_per_image_decode_ms"] > 0
    assert "own_ms_per_trajectory_c1" in figures
    names = [goal["name"] for goal in result["goals"]]
    assert names == ["fraction_of_ideal_c32", "fraction_of_ideal_c1", "fraction_of_ideal_c8"]
    for goal in result["goals"]:
        assert goal["value"] > 0 and goal["target"] == 0.9 and goal["better"] == "higher"
    assert list(tmp_path.iterdir()) == []  # the work folder is removed unless --keep


def test_cli_bench_times_the_commands_against_importing_click(tmp_path: Path) -> None:
    script = BENCH.parent / "cli.py"
    command = [sys.executable, str(script), "--quick", "--repeats", "1", "--workdir", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "cli" and {"platform", "python", "cpu_count"} <= result["machine"].keys()
    figures = result["figures"]
    for name in ("bare_click", "help", "version", "db_info", "bridge_help"):
        assert figures[f"{name}_ms"] > 0, name
    assert figures["help_vs_bare_click"] == round(figures["help_ms"] / figures["bare_click_ms"], 2)
    assert result["goals"] == [
        {
            "name": "cli_help_vs_bare_click",
            "value": figures["help_vs_bare_click"],
            "target": 3,
            "unit": "x",
            "better": "lower",
        },
    ]
    assert list(tmp_path.iterdir()) == []  # the work folder is removed unless --keep


def test_rewards_bench_prints_a_rate_goal_per_reward() -> None:
    script = BENCH.parent / "rewards.py"
    command = [sys.executable, str(script), "--quick", "--completions", "600"]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "rewards" and {"platform", "python", "cpu_count"} <= result["machine"].keys()
    assert result["figures"]["completions"] == 600
    goals = result["goals"]
    assert {goal["name"] for goal in goals} >= {"format_reward_per_s", "action_reward_per_s", "iou_reward_per_s"}
    for goal in goals:
        assert goal["value"] > 0 and goal["target"] == 50_000
        assert goal["unit"] == "completions/s" and goal["better"] == "higher"


def test_eval_bench_prints_the_overhead_goal(tmp_path: Path) -> None:
    script = BENCH.parent / "eval.py"
    command = [sys.executable, str(script), "--quick", "--steps", "12", "--workdir", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "eval" and result["machine"]["concurrency"] == 4
    figures = result["figures"]
    assert figures["steps"] >= 12 and figures["endpoint_s"] > 0 and figures["evaluation_s"] > 0
    [goal] = result["goals"]
    assert goal | {"value": None} == {
        "name": "evaluation_overhead",
        "value": None,
        "target": 10.0,
        "unit": "%",
        "better": "lower",
    }
    # The goal rounds the exact overhead to 0.1 %, the figure to 4 places: rounding the figure again may land on
    # the other side of a half (-0.0195 from -0.01954 gives -1.9 where the goal says -2.0). Both within their
    # rounding of the same overhead: 0.05 % and 0.005 % apart at most.
    assert goal["value"] == pytest.approx(100 * figures["overhead"], abs=0.055 + 1e-9)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.train
def test_train_bench_says_what_it_measured_and_prints_the_overhead_goals(tmp_path: Path) -> None:
    script = BENCH.parent / "train.py"
    command = [sys.executable, str(script), "--quick", "--steps", "1", "--size", "tiny", "--workdir", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "train" and result["measured"].endswith("-tiny")  # a GPU box names itself: gpu-tiny
    assert result["figures"]["grpo_task_seconds_per_step"] > 0
    assert result["figures"]["sft_trl_steps_per_s"] > 0 and result["figures"]["grpo_action_bridge_steps_per_s"] > 0
    assert [goal["name"] for goal in result["goals"]] == ["sft_bridge_overhead", "grpo_action_bridge_overhead"]
    assert all(goal["target"] == 10.0 and goal["better"] == "lower" for goal in result["goals"])
    assert list(tmp_path.iterdir()) == []


def test_train_bench_says_without_a_gpu_that_it_measured_nothing_when_asked_for_a_gpu() -> None:
    script = BENCH.parent / "train.py"
    command = [sys.executable, str(script), "--gpu-only", "--quick", "--steps", "1", "--size", "tiny"]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "train"
    if result["machine"]["gpu"]:
        assert result["measured"].endswith("-tiny") and len(result["goals"]) == 2
        return
    assert result["figures"] == {"skipped": "no GPU"} and result["goals"] == []


def test_export_bench_copies_the_pool_screens_copies_and_sets_each_export_against_the_copy_beside_it(
    tmp_path: Path,
) -> None:
    script = BENCH.parent / "export.py"
    command = [sys.executable, str(script), "--steps", "80", "--formats", "jsonl,trl", "--pairs", "1"]
    done = subprocess.run([*command, "--workdir", str(tmp_path)], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    figures = result["figures"]
    assert figures["steps"] == 80 and figures["prepare_timed_screenshots"] == 64  # the other 16 given the same bytes
    copies = figures["copy_s_all"]  # one after each of the five exports
    assert len(copies) == 5 and figures["copy_s"] == sorted(copies)[2]
    for key, copy_s in zip(["first_default", "jsonl_as_stored", "trl_as_stored"], copies, strict=False):
        seconds = figures[f"{key}_s"]  # rounded to 0.01 s, the copy to 0.001 s and the ratio to 0.01
        lowest, highest = (seconds - 0.005) / (copy_s + 0.0005), (seconds + 0.005) / (copy_s - 0.0005)
        assert lowest - 0.005 <= figures[f"{key}_vs_copy"] <= highest + 0.005
    assert "first_unprepared_s" not in figures  # --full only
    assert [goal["name"] for goal in result["goals"]] == [
        "first_default_vs_copy",
        "jsonl_as_stored_vs_copy_of_output",
        "trl_as_stored_vs_copy_of_output",
        "jsonl_default_vs_copy",
        "trl_default_vs_copy",
    ]
    assert list(tmp_path.iterdir()) == []


def test_export_bench_keeps_the_median_pair_of_a_goal_near_its_target(tmp_path: Path) -> None:
    script = BENCH.parent / "export.py"
    command = [sys.executable, str(script), "--steps", "40", "--formats", "jsonl", "--images", "as_stored"]
    done = subprocess.run([*command, "--workdir", str(tmp_path)], capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout.strip().splitlines()[-1])["figures"]
    ratio = figures["jsonl_as_stored_vs_copy_of_output"]
    if abs(ratio / 1.5 - 1) > 0.25 and "jsonl_as_stored_ratios" not in figures:
        assert len(figures["copy_s_all"]) == 1  # far from the target: one pair decides
        return
    ratios = figures["jsonl_as_stored_ratios"]  # near it: five pairs, the median's figures kept
    assert len(ratios) == 5 == len(figures["copy_s_all"]) and ratio == sorted(ratios)[2]


def test_team_checks_bench_measures_on_a_server_or_says_there_is_none(tmp_path: Path) -> None:
    script = BENCH.parent / "team_checks.py"
    command = [sys.executable, str(script), "--quick", "--trajectories", "3", "--steps", "2", "--repeats", "2"]
    done = subprocess.run([*command, "--workdir", str(tmp_path)], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "team_checks"
    if not os.environ.get("ANNOTATOR_TEST_POSTGRES_URL"):
        assert result["figures"] == {"skipped": "no PostgreSQL server"} and result["goals"] == []
        return
    figures = result["figures"]
    assert figures["steps"] == 6 and figures["save_ms_no_checks"] > 0 and figures["read_scores_ms_rater_login"] > 0
    assert [goal["name"] for goal in result["goals"]] == ["checked_save_vs_unchecked", "rater_read_overhead_ms"]
    assert list(tmp_path.iterdir()) == []


def test_scale_bench_grows_a_workspace_and_prints_each_size(tmp_path: Path) -> None:
    script = BENCH.parent / "scale.py"
    command = [sys.executable, str(script), "--sizes", "300,600", "--repeats", "1", "--workdir", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bench"] == "scale"
    if not os.environ.get("ANNOTATOR_TEST_POSTGRES_URL"):
        assert result["figures"] == {"skipped": "no PostgreSQL server"} and result["goals"] == []
        return
    sizes = result["figures"]["sizes"]
    assert list(sizes) == ["300", "600"] and all(sizes["600"][key] > 0 for key in ("first_page", "queue", "stats"))
    assert sizes["600"]["export_steps_per_s"] > 0 and set(result["figures"]["growth_largest_vs_smallest"]) >= {"save"}
    assert [goal["name"] for goal in result["goals"]][-1] == "export_throughput_smallest_vs_largest"
    assert list(tmp_path.iterdir()) == []
