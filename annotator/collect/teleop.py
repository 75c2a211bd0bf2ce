"""Teleoperation: a person decides. The GUI or the CLI hands actions to the run through a queue.

On the command line a person types short commands (`click 540 1200`, `type 你好`, `back`, `done`) or a
full tool call as JSON; `parse_command` turns either into a typed action with a clear error otherwise.
"""

from __future__ import annotations

import json
import queue
import shlex
import time
from collections.abc import Callable

from annotator.collect.decide import Decision, DecisionUnavailable, StepContext
from annotator.domain import actions as act

BUTTONS = {"back": "Back", "home": "Home", "menu": "Menu", "enter": "Enter"}
HELP = (
    "commands: click X Y | long_press X Y [SECONDS] | swipe X1 Y1 X2 Y2 | type TEXT | key NAME | "
    "back | home | menu | enter | open APP | wait SECONDS | done | fail | a tool call as JSON"
)


def _numbers(words: list[str], count: int, command: str) -> list[float]:
    try:
        values = [float(word) for word in words]
        values = [int(value) if value.is_integer() else value for value in values]  # pixels stay whole numbers
    except ValueError:
        raise ValueError(f"{command}: expected {count} numbers, got {' '.join(words)!r}") from None
    if len(values) != count:
        raise ValueError(f"{command}: expected {count} numbers, got {len(values)}")
    return values


def _from_words(command: str, rest: str) -> act.Action:
    words = rest.split()
    if command in BUTTONS and not rest:
        return act.SystemButton(button=BUTTONS[command])
    if command == "click":
        return act.Click(coordinate=tuple(_numbers(words, 2, command)))  # type: ignore[arg-type]
    if command == "long_press":
        values = _numbers(words, len(words) if len(words) in (2, 3) else 2, command)
        return act.LongPress(coordinate=(values[0], values[1]), time=values[2] if len(values) == 3 else None)
    if command == "swipe":
        x1, y1, x2, y2 = _numbers(words, 4, command)
        return act.Swipe(coordinate=(x1, y1), coordinate2=(x2, y2))
    if command == "wait":
        return act.Wait(time=_numbers(words, 1, command)[0])
    if command in ("type", "open", "key") and rest:
        return {"type": act.Type, "open": act.Open, "key": act.Key}[command](text=rest)
    if command in ("done", "success", "fail", "failure") and not rest:
        return act.Terminate(status="success" if command in ("done", "success") else "failure")
    raise ValueError(f"unknown command {command!r}; {HELP}")


def parse_command(line: str) -> act.Action:
    """A typed action from a command line or a JSON tool call; ValueError names what is wrong."""
    text = line.strip()
    if not text:
        raise ValueError(f"empty command; {HELP}")
    if text.startswith("{"):
        try:
            return act.action_from_tool_call(json.loads(text))
        except json.JSONDecodeError as error:
            raise ValueError(f"not JSON at column {error.colno}: {error.msg}") from None
    command, _, rest = text.partition(" ")
    if command == "type":  # the text is typed exactly, quotes and all
        return _from_words(command, rest)
    if command in ("open", "key"):
        return _from_words(command, " ".join(shlex.split(rest)) if rest else "")
    return _from_words(command.lower(), rest.strip())


class TeleopDecider:
    """Waits for the person's next action (put by the GUI or the CLI with `submit`).

    An action that does not fit the screen (a click outside it) is refused through `on_refused` and the
    run waits for another one: a slip of the hand never ends a run.
    """

    kind = "human"

    def __init__(self, timeout_s: float | None = None, on_refused: Callable[[str], None] | None = None) -> None:
        self.actions: queue.Queue[act.Action | None] = queue.Queue()
        self.timeout_s = timeout_s
        self.on_refused = on_refused or (lambda message: None)

    def submit(self, action: act.Action | None) -> None:
        """The next action; None means the person stopped (the run is interrupted, resumable)."""
        self.actions.put(action)

    def decide(self, context: StepContext) -> Decision:
        started = time.perf_counter()
        while True:
            try:
                action = self.actions.get(timeout=self.timeout_s)
            except queue.Empty:
                raise DecisionUnavailable(f"no action from the person within {self.timeout_s:g} s") from None
            if action is None:
                raise DecisionUnavailable("the person stopped")
            problems = act.validate_action(action, context.screen)
            if not problems:
                return Decision(action, decide_ms=(time.perf_counter() - started) * 1000)
            self.on_refused("; ".join(str(problem) for problem in problems))
