from __future__ import annotations

import subprocess
import sys

import pytest

from tests.rewards.calls import infigui, mobile, truth
from trainer_bridge.rewards import RECIPES, Recipe, configured, iou_reward, trl_rewards


def test_the_papers_weights() -> None:
    assert trl_rewards("mobile-r1")[1] == [1.0, 1.0]
    assert trl_rewards("gui-r1")[1] == [0.2, 0.8, 0.8, 0.8]
    weights = dict(RECIPES["infigui-r1"].weights)
    assert weights["think_tool_call_format_reward"] == 0.1
    assert weights["action_type_reward"] + weights["action_reward"] == pytest.approx(0.9)


def test_mobile_r1_sums_act_and_format() -> None:
    funcs, weights = trl_rewards("mobile-r1")
    columns = truth("click", [0.0, 0.0, 10.0, 10.0], coordinate=[5, 5])
    completion = mobile("click", coordinate=[5, 5])
    total = sum(w * fn([completion], **columns)[0] for fn, w in zip(funcs, weights, strict=True))
    assert total == 2.0


def test_infigui_accuracy_counts_only_with_the_format() -> None:
    funcs, _ = trl_rewards("infigui-r1")
    columns = truth("click", [0.0, 0.0, 10.0, 10.0], coordinate=[5, 5])
    good, unformatted = infigui("click", coordinate=[5, 5]), infigui("click", coordinate=[5, 5]) + " ok"
    assert [fn([good, unformatted], **{k: v * 2 for k, v in columns.items()}) for fn in funcs] == [
        [1.0, 0.0],
        [1.0, 0.0],
        [1.0, 0.0],
    ]


def test_params_and_unknown_names() -> None:
    recipe = Recipe("test", (("iou_reward", 1.0),), params={"iou_reward": {"iou_threshold": 0.5}})
    (fn,), _ = trl_rewards(recipe)
    half = '<answer>{"bbox_2d": [0, 0, 10, 5]}</answer>'
    assert fn.__name__ == "iou_reward" and fn([half], gt_bbox=[[0, 0, 10, 10]]) == [1.0]
    assert configured(iou_reward, "strict_iou").__name__ == "strict_iou"
    with pytest.raises(ValueError, match="unknown rewards"):
        Recipe("x", (("nope", 1.0),))
    with pytest.raises(ValueError, match="unknown recipe"):
        trl_rewards("nope")


def test_the_package_imports_no_torch() -> None:
    code = "import sys, trainer_bridge.rewards; assert 'torch' not in sys.modules and 'PySide6' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
