"""Benchmark the rule-based rewards: completions scored per second, each reward on its own, on one core.

100,000 realistic completions (Mobile-R1 replies and UI-R1 / GUI-R1 `<think><answer>` replies; clicks, long
presses, swipes, typed text, buttons, keys, waits, terminates; a sixth malformed: cut off, chatter around the
tags, bad JSON, unknown actions) with the `grpo-action` export's ground-truth columns, 8 completions per prompt
(the truth repeats, as TRL passes it), scored in TRL's batches. Each reward starts with cold caches, so its figure
includes parsing every completion itself (in training the rewards of a recipe share the parse, and the later ones
are faster). Prints one JSON object as its last line (docs/architecture.md#benchmarks).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from common import machine

from trainer_bridge.rewards import REWARDS
from trainer_bridge.rewards.completions import clear_caches

GOAL_PER_S = 50_000
BATCH = 512  # completions per reward call, as TRL's per-device generation batch
GENERATIONS = 8  # completions per prompt (TRL's num_generations): the ground truth repeats, the replies differ
THOUGHTS = (
    "当前在淘宝首页，搜索框在顶部。下一步点击搜索框，输入商品名称。",
    "The settings list is open and Wi-Fi is the second row. Tap it to see the networks.",
    "页面还在加载，商品列表没有出现，先等待一秒。",
    "The order has been placed and the confirmation page is shown, so the task is complete.",
    "需要返回上一页，重新选择收货地址。",
)
TEXTS = ("红色跑鞋", "wireless earbuds", "北京到上海的机票", "hello", "附近的咖啡店")
SCREEN = (1092, 2408)  # the image the model is shown for a 2184x4816 phone at the default half scale


def log(message: str) -> None:
    print(f"[bench rewards] {message}", file=sys.stderr, flush=True)


def _point(rng: random.Random) -> list[int]:
    return [rng.randrange(SCREEN[0]), rng.randrange(SCREEN[1])]


def _arguments(rng: random.Random, action: str) -> dict[str, Any]:
    if action in ("click", "long_press"):
        return {"coordinate": _point(rng)}
    if action == "swipe":
        start = _point(rng)
        return {"coordinate": start, "coordinate2": [start[0], max(0, start[1] - rng.randrange(200, 900))]}
    if action == "type":
        return {"text": rng.choice(TEXTS)}
    if action == "system_button":
        return {"button": rng.choice(["Back", "Home", "Enter"])}
    if action == "key":
        return {"text": rng.choice(["volume_up", "KEYCODE_VOLUME_DOWN"])}
    if action == "wait":
        return {"time": rng.choice([1, 2])}
    return {"status": rng.choice(["success", "failure"])}


ACTIONS = ("click",) * 8 + ("long_press", "swipe", "swipe", "type", "type", "system_button", "key", "wait", "terminate")


def _reply(rng: random.Random, action: str, arguments: dict[str, Any]) -> str:
    think = rng.choice(THOUGHTS)
    if rng.random() < 0.2:  # the UI-R1 / GUI-R1 format
        return (
            f"<think>{think}</think><answer>{json.dumps({'action': action, **arguments}, ensure_ascii=False)}</answer>"
        )
    call = json.dumps({"name": "mobile_use", "arguments": {"action": action, **arguments}}, ensure_ascii=False)
    return f"<think>\n{think}\n</think>\n<action>\n点击目标\n</action>\n<tool_call>\n{call}\n</tool_call>"


def _malformed(rng: random.Random, reply: str) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return reply[: rng.randrange(len(reply))]  # cut off by the length limit
    if kind == 1:
        return "好的，" + reply + "\n希望有帮助！"
    if kind == 2:
        return reply.replace('"arguments"', "'arguments'")
    return reply.replace('"action": "', '"action": "tap_')


def _truth(rng: random.Random) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A labelled step: its action, arguments and the columns the export writes for it."""
    action = rng.choice(ACTIONS)
    arguments = _arguments(rng, action)
    truth = {"name": "mobile_use", "arguments": {"action": action, **arguments}}
    box = None
    if "coordinate" in arguments and rng.random() < 0.9:  # a tenth of grounded rows have no box
        x, y = arguments["coordinate"]
        box = [max(0, x - 60), max(0, y - 30), x + 60, y + 30]
    text = next((str(arguments[k]) for k in ("text", "button", "status") if k in arguments), None)
    columns = {
        "gt_action_model": json.dumps(truth, ensure_ascii=False, sort_keys=True),
        "gt_action_type": action,
        "gt_text": text,
        "gt_bbox_model": box,
        "image_width": SCREEN[0],
        "image_height": SCREEN[1],
    }
    return action, arguments, columns


def _completion(rng: random.Random, action: str, arguments: dict[str, Any]) -> str:
    """One sampled reply to the step: mostly its action, near the point or on it, a sixth of them malformed."""
    predicted = dict(arguments)
    if "coordinate" in predicted and rng.random() < 0.6:  # near misses and hits
        predicted["coordinate"] = [c + rng.randrange(-90, 90) for c in predicted["coordinate"]]
    reply = _reply(rng, action if rng.random() < 0.85 else rng.choice(ACTIONS), predicted)
    return _malformed(rng, reply) if rng.random() < 1 / 6 else reply


def batches(count: int, seed: int) -> list[tuple[list[str], dict[str, list[Any]]]]:
    """TRL's batches: each prompt's columns repeated for its GENERATIONS completions, as GRPOTrainer passes them."""
    rng = random.Random(seed)
    made = []
    while len(made) < count:
        action, arguments, columns = _truth(rng)
        made += [(_completion(rng, action, arguments), columns) for _ in range(GENERATIONS)]
    made = made[:count]
    result = []
    for start in range(0, count, BATCH):
        chunk = made[start : start + BATCH]
        columns = {name: [row[name] for _, row in chunk] for name in chunk[0][1]}
        result.append(([reply for reply, _ in chunk], columns))
    return result


def rate(name: str, data: list[tuple[list[str], dict[str, list[Any]]]], repeats: int) -> float:
    """Completions per second, the fastest of ``repeats`` cold runs over all of ``data``: the code runs on one
    core, so another process only ever slows a run (the same run varies 2x on a shared machine; timeit's rule)."""
    reward, total, rates = REWARDS[name], sum(len(c) for c, _ in data), []
    for _ in range(repeats):
        clear_caches()
        started = time.perf_counter()
        for completions, columns in data:
            reward(completions, **columns)
        rates.append(total / (time.perf_counter() - started))
    return max(rates)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5,000 completions, one run each (about 2 s)")
    parser.add_argument("--completions", type=int, help="how many (default 100,000; 5,000 with --quick)")
    parser.add_argument("--repeats", type=int, help="runs per reward, the fastest is kept (default 5; 1 quick)")
    args = parser.parse_args(argv)
    count = args.completions or (5_000 if args.quick else 100_000)
    repeats = args.repeats or (1 if args.quick else 5)
    data = batches(count, seed=17)
    log(f"{count} completions in batches of {BATCH}, {repeats} run(s) per reward")
    figures: dict[str, Any] = {"completions": count, "batch": BATCH, "repeats": repeats}
    for name in REWARDS:
        figures[f"{name}_per_s"] = round(rate(name, data, repeats))
        log(f"{name}: {figures[f'{name}_per_s']:,} per second")
    goals = [
        {
            "name": f"{name}_per_s",
            "value": figures[f"{name}_per_s"],
            "target": GOAL_PER_S,
            "unit": "completions/s",
            "better": "higher",
        }
        for name in REWARDS
    ]
    print(json.dumps({"bench": "rewards", "machine": machine(), "figures": figures, "goals": goals}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
