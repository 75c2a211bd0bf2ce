"""What a decider sees and returns: the interface between the collection loop and a person or a model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from annotator.device.observe import DeviceObservation
from annotator.domain.actions import Action
from annotator.domain.geometry import ScreenSize


@dataclass(frozen=True)
class PastStep:
    """One earlier step of the run, as the text history gives it (tool call in device pixels)."""

    think: str | None
    action_text: str | None
    tool_call: dict[str, Any] | None
    screenshot_png: bytes


@dataclass(frozen=True)
class StepContext:
    instruction: str
    app: str
    index: int  # this step's index in the trajectory
    observation: DeviceObservation
    history: tuple[PastStep, ...]

    @property
    def screen(self) -> ScreenSize:
        return ScreenSize(self.observation.width, self.observation.height)


@dataclass
class Decision:
    """The next action (device pixels), or no action with `failure` saying why the run cannot go on."""

    action: Action | None
    model_reply: str | None = None
    think: str | None = None
    action_text: str | None = None
    usage: dict[str, Any] | None = None
    attempts: list[dict[str, Any]] = field(default_factory=list)  # replies that could not be used, with problems
    failure: str | None = None
    decide_ms: float = 0.0
    model_ms: float = 0.0  # of decide_ms, the time spent waiting for the model's API


class DecisionUnavailable(RuntimeError):
    """The decider cannot answer now (the model's API is down, the person left): the run is interrupted."""


class Decider(Protocol):
    kind: str  # "agent" or "human"

    def decide(self, context: StepContext) -> Decision: ...


def preparer(decider: Decider):
    """The decider's `prepare(png)` hook, if it has one: it sees each screenshot as soon as it arrives."""
    return getattr(decider, "prepare", None)
