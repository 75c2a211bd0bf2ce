"""Benchmark the virtual phone: screenshots and hierarchy dumps over the loopback adb server, and replies
of the scripted endpoint, against the same work done in-process (the protocol's overhead is the goal).
Hierarchy dumps and taps have no goal: adbutils itself sleeps 10 ms per connection (see adb_echo_ms). The two sides
of each goal's ratio are timed in turn, call after call, so that the machine's other work weighs on both alike.

Prints one JSON object as its last line (docs/architecture.md#benchmarks).
"""

from __future__ import annotations

import argparse
import base64
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import openai
from adbutils import AdbClient

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_agent import ScriptedAgent
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.demo.phone.solver import run_solution
from annotator.domain.prompts import agent_system_prompt

INSTRUCTION = "settings-device-name"


def median_ms(action: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 2)


def alternating_ms(first: Callable[[], Any], second: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """Medians of `first` and `second` timed in turn, so that a burst of the machine's other work weighs on both
    sides of a ratio alike (timed one block after the other, one side could land in a burst the other missed)."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for action, found in ((first, times[0]), (second, times[1])):
            start = time.perf_counter()
            action()
            found.append(time.perf_counter() - start)
    return round(statistics.median(times[0]) * 1000, 2), round(statistics.median(times[1]) * 1000, 2)


def agent_messages(phone: VirtualPhone, history_length: int) -> list[dict[str, Any]]:
    """A request as the collector sends it, after `history_length` steps of the instruction's solution."""
    instruction = instruction_by_uid(INSTRUCTION)
    messages: list[dict[str, Any]] = [{"role": "system", "content": agent_system_prompt(instruction.text)}]
    solution = run_solution(phone, instruction)
    for _ in range(history_length):
        _, action = next(solution)
        messages.append({"role": "assistant", "content": f"<tool_call>{json.dumps(action.to_tool_call())}</tool_call>"})
    url = "data:image/png;base64," + base64.b64encode(phone.screencap_png()).decode()
    messages.append({"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]})
    return messages


def measure(repeats: int) -> dict[str, float]:
    phone = VirtualPhone()
    phone.start_app("com.android.settings")
    figures = {
        "local_render_ms": median_ms(phone.render, repeats),
        "local_dump_ms": median_ms(phone.hierarchy_xml, repeats),
    }
    with VirtualAdbServer([phone]) as server:
        device = AdbClient(host="127.0.0.1", port=server.port).device(phone.serial)
        remote = lambda: device.shell(["screencap", "-p"], encoding=None)  # noqa: E731
        local, adb = alternating_ms(phone.screencap_png, remote, repeats)
        figures |= {"local_screencap_ms": local, "adb_screencap_ms": adb}
        figures["adb_screenshot_pil_ms"] = median_ms(lambda: device.screenshot(error_ok=False), repeats)
        figures["adb_dump_hierarchy_ms"] = median_ms(device.dump_hierarchy, repeats)
        figures["adb_tap_ms"] = median_ms(lambda: device.click(540, 2000), repeats)
        # adbutils sleeps 10 ms when it closes a connection: this is the floor of every adb call
        figures["adb_echo_ms"] = median_ms(lambda: device.shell("echo"), repeats)
    figures["png_bytes"] = len(phone.screencap_png())
    messages = agent_messages(VirtualPhone(), history_length=4)
    agent = ScriptedAgent()
    with ScriptedEndpoint() as endpoint:
        client = openai.OpenAI(base_url=endpoint.base_url, api_key="bench", max_retries=0)
        call = lambda: client.chat.completions.create(model="scripted", messages=messages)  # noqa: E731
        call()  # the client's first connection, untimed
        local, remote = alternating_ms(lambda: agent.reply(messages), call, repeats)
        figures |= {"agent_reply_local_ms": local, "endpoint_reply_ms": remote}
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, a few seconds")
    parser.add_argument("--repeats", type=int, help="timed repeats per figure (default 30; 5 with --quick)")
    args = parser.parse_args(argv)
    repeats = args.repeats or (5 if args.quick else 30)
    figures = measure(repeats) | {"repeats": repeats}
    ratio = {"unit": "x", "better": "lower"}
    screencap = round(figures["adb_screencap_ms"] / figures["local_screencap_ms"], 3)
    endpoint = round(figures["endpoint_reply_ms"] / figures["agent_reply_local_ms"], 3)
    goals = [
        {"name": "adb_screencap_vs_local", "value": screencap, "target": 1.5} | ratio,
        {"name": "endpoint_vs_local_reply", "value": endpoint, "target": 3.0} | ratio,
    ]
    machine = {"platform": platform.platform(), "python": platform.python_version()}
    print(json.dumps({"bench": "virtual_phone", "machine": machine, "figures": figures, "goals": goals}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
