"""Decomposed grounding with selection (UI-AGILE section 3.4) as an evaluation option: a policy that asks another
policy as usual and then looks closer at where its coordinate action points.

When the inner policy's reply is a well-formed click or long press (and, if asked, a swipe's start), the point is
refined on the request's full-resolution screenshot (`PolicyRequest.screenshot`, the phone's own pixels) by
`annotator.llm.decomposed.DecomposedGrounding`: the screen in overlapping tiles, a candidate point per tile for
the reply's `<action>` text (the task, when the reply has none), a yes/no relevance question per candidate, the
best mapped back. The reply's `<tool_call>` is rewritten with the chosen point in the model's coordinate space
(the `space` the reply is written in); every other character of the reply is kept, so its format and action type
score as before. The task and earlier actions sent with the tiles are read from the request's own messages
(`annotator.domain.grounding_prompt.conversation_context`).

What happened is kept with the prediction, under ``usage["decomposed_grounding"]`` (`Refinement.as_json`: the
candidates, their scores, and why the point was kept when it was: no screenshot, no candidate, none judged to
match, junk replies); the latency includes the refinement. `describe()` adds the decomposition's settings, so an
evaluation with it has another fingerprint than one without. A grounding endpoint that refuses the request
raises `PolicyRejected`, as the inner policy's does.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, cast

from annotator.domain import actions as act
from annotator.domain.geometry import ScreenSize
from annotator.domain.grounding_prompt import conversation_context
from annotator.domain.model_space import POINT_KEYS, ModelSpace
from annotator.domain.response import parse_response, tool_call_json
from annotator.imaging.decode import image_size
from annotator.llm.client import LLMClient, LLMConfig, LLMRejected
from annotator.llm.decomposed import CROP_SHARE, DecomposedGrounding, TileLayout
from trainer_bridge.evaluate.policy import Policy, PolicyAnswer, PolicyRejected, PolicyRequest

USAGE_KEY = "decomposed_grounding"
_TOOL_CALL_BODY = re.compile(r"(<tool_call>\s*)(.*?)(\s*</tool_call>)", re.DOTALL)


def with_tool_call(reply: str, tool_call: dict[str, Any]) -> str:
    """`reply` with its (one, well-formed) `<tool_call>` body replaced by `tool_call`; all else as it was."""
    return _TOOL_CALL_BODY.sub(lambda m: m.group(1) + tool_call_json(tool_call) + m.group(3), reply, count=1)


def _kept(note: str) -> dict[str, Any]:
    return {"refined": False, "note": note}


class DecomposedGroundingPolicy:
    """`inner` answers; `config` is the endpoint that grounds on the tiles (usually the inner policy's own model),
    `selector` the one that answers the relevance questions (default: `config`'s; UI-AGILE used
    Qwen2.5-VL-7B-Instruct); `space` is the coordinate space the inner policy's replies are written in, and how
    the grounding model is shown images. `layout`, `crop_share`, `swipes`, `concurrency`: as DecomposedGrounding.
    Closing the policy closes the inner one and the grounding clients."""

    wants_screenshot = True  # the runner sends the current screen at the phone's own pixels with each request

    def __init__(
        self,
        inner: Policy,
        config: LLMConfig,
        *,
        space: ModelSpace,
        selector: LLMConfig | None = None,
        layout: TileLayout | None = None,
        crop_share: float = CROP_SHARE,
        swipes: bool = False,
        concurrency: int = 4,
        api_key: str | None = None,
    ) -> None:
        self.inner, self.space = inner, space
        self._clients = [LLMClient(config, api_key=api_key)]
        if selector is not None:
            self._clients.append(LLMClient(selector, api_key=api_key))
        self.grounding = DecomposedGrounding(
            self._clients[0],
            selector=self._clients[-1],
            space=space,
            layout=layout,
            crop_share=crop_share,
            swipes=swipes,
            concurrency=concurrency,
        )

    def describe(self) -> dict[str, Any]:
        return self.inner.describe() | {USAGE_KEY: self.grounding.settings()}

    def answer(self, request: PolicyRequest, *, temperature: float) -> PolicyAnswer:
        answer = self.inner.answer(request, temperature=temperature)
        if answer.text is None:
            return answer
        try:
            text, note = self.refined_reply(answer.text, request)
        except LLMRejected as error:
            raise PolicyRejected(f"the decomposed grounding endpoint refused the request: {error.message}") from None
        if note is None:
            return answer
        latency = None if answer.latency_ms is None else answer.latency_ms + note.get("ms", 0.0)
        usage = (answer.usage or {}) | {USAGE_KEY: note}
        return dataclasses.replace(answer, text=text, latency_ms=latency, usage=usage)

    def refined_reply(self, reply: str, request: PolicyRequest) -> tuple[str, dict[str, Any] | None]:
        """The reply with its point refined, and the note of what was done (None: no point to refine)."""
        parsed = parse_response(reply, strict=True)
        action = parsed.parsed_action
        if action is None:
            return reply, None  # no well-formed tool call: scored as it is, nothing to point with
        if not isinstance(action, act.Click | act.LongPress) and not (isinstance(action, act.Swipe) and self.swipes):
            return reply, None
        if request.screenshot is None:
            return reply, _kept("kept the reply's point: the request carries no screenshot")
        size = image_size(request.screenshot)
        if size is None:
            return reply, _kept("kept the reply's point: the request's screenshot is not a readable image")
        screen = ScreenSize(*size)
        context = conversation_context(request.messages, self.space, screen)
        device = self._on_device(action, screen)
        element = parsed.action or context.task
        refined, refinement = self.grounding.refine_action(device, request.screenshot, element, context)
        if refinement is None or not refinement.refined:
            return reply, refinement.as_json() if refinement else None
        return with_tool_call(reply, self.space.tool_call(refined.to_tool_call(), screen)), refinement.as_json()

    @property
    def swipes(self) -> bool:
        return self.grounding.swipes

    def _on_device(self, action: act.Action, screen: ScreenSize) -> act.Action:
        """The action with its points in device pixels of `screen` (from the reply's space)."""
        keys = [key for key in POINT_KEYS if hasattr(action, key)]
        points = {key: self.space.device_point(getattr(action, key), screen) for key in keys}
        return dataclasses.replace(cast(Any, action), **points)  # every Action subclass is a dataclass

    def close(self) -> None:
        self.inner.close()
        for client in self._clients:
            client.close()
