"""The agent decider: a VLM behind an OpenAI-compatible endpoint picks each action (Mobile-R1 section 3.1).

It sends the instruction, the full text history and the last W screenshots at the smart_resize size,
parses the reply strictly, and maps coordinates back to device pixels. A reply that cannot be used is
kept (raw text and its problems) and asked again, up to a limit; then the run ends as failed.

With `decomposed` (UI-AGILE 3.4, `annotator.llm.decomposed`), a usable click or long press has its point refined
on the observation's full screenshot; the raw reply is kept as it came, the action done is the refined one, and
the step's usage records what the refinement did (``usage["decomposed_grounding"]``).
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor

from annotator.collect.decide import Decision, DecisionUnavailable, StepContext
from annotator.domain.actions import Action
from annotator.domain.coords import DEFAULT_RESIZE, ResizeConfig
from annotator.domain.grounding_prompt import GroundingContext
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, MOBILE_R1_VARIANTS, PromptVariant
from annotator.llm.agent import HistoryStep, build_agent_messages, parse_agent_reply, prepare_screenshot
from annotator.llm.client import LLMClient, LLMError
from annotator.llm.decomposed import DecomposedGrounding


class AgentDecider:
    kind = "agent"

    def __init__(
        self,
        client: LLMClient,
        *,
        history_images: int = 2,
        resize: ResizeConfig = DEFAULT_RESIZE,
        reply_retries: int = 2,
        prompt_variant: PromptVariant = DEFAULT_PROMPT_VARIANT,
        decomposed: DecomposedGrounding | None = None,
        image_scale: float = 1.0,
    ) -> None:
        if prompt_variant not in MOBILE_R1_VARIANTS:
            raise ValueError(
                f"prompt variant {prompt_variant}: collecting reads Mobile-R1 replies; use one of "
                f"{', '.join(MOBILE_R1_VARIANTS)}"
            )
        self.client, self.history_images, self.resize = client, history_images, resize
        self.image_scale = image_scale  # the screenshot scaled before smart_resize (Mobile-R1 stage 3: 0.5)
        self.decomposed = decomposed
        self.prompt_variant = prompt_variant
        self.reply_retries = reply_retries
        self._preparing: list[Future[None]] = []
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="screenshot-prep")

    def close(self) -> None:
        """Stop the preparing thread (pending work is dropped)."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def prepare(self, png: bytes) -> None:
        """Start resizing a fresh screenshot for the model while the phone is still being observed
        (Pillow releases the GIL, so this overlaps the adb round trips instead of adding to the step)."""
        self._preparing = [
            *self._preparing[-3:],
            self._pool.submit(prepare_screenshot, png, self.resize, self.image_scale),
        ]

    def decide(self, context: StepContext) -> Decision:
        started = time.perf_counter()
        for future in self._preparing:  # a screenshot being prepared is waited for, not prepared twice
            future.exception()
        self._preparing = []
        history = [HistoryStep(step.think, step.action_text, step.tool_call) for step in context.history]
        screenshots = [step.screenshot_png for step in context.history] + [context.observation.png]
        try:
            request = build_agent_messages(
                context.instruction,
                history,
                screenshots[-self.history_images :],
                context.screen,
                history_images=self.history_images,
                resize=self.resize,
                variant=self.prompt_variant,
                image_scale=self.image_scale,
            )
        except ValueError as error:  # e.g. the screen rotated mid-run: the model cannot be asked sensibly
            raise DecisionUnavailable(f"cannot build the model's request: {error}") from error
        attempts: list[dict] = []
        model_ms = 0.0
        for _ in range(self.reply_retries + 1):
            try:
                completion = self.client.complete(request.messages)
            except LLMError as error:
                raise DecisionUnavailable(str(error)) from error
            model_ms += completion.latency_ms
            reply = parse_agent_reply(completion.text, request.resized, context.screen)
            if reply.action is not None and not reply.problems:
                action, refinement, refine_ms = self._refined(reply.action, reply.parsed.action, context)
                model_ms += refine_ms
                return Decision(
                    action,
                    model_reply=completion.text,
                    think=reply.parsed.think,
                    action_text=reply.parsed.action,
                    usage=completion.usage | refinement,
                    attempts=attempts,
                    decide_ms=(time.perf_counter() - started) * 1000,
                    model_ms=model_ms,
                )
            attempts.append({"reply": completion.text, "problems": reply.problems, "usage": completion.usage})
        last = attempts.pop()
        failure = f"{len(attempts) + 1} replies could not be used; the last: {'; '.join(last['problems'])}"
        return Decision(
            None,
            model_reply=last["reply"],
            usage=last["usage"],
            attempts=attempts,
            failure=failure,
            decide_ms=(time.perf_counter() - started) * 1000,
            model_ms=model_ms,
        )

    def _refined(self, action: Action, action_text: str | None, context: StepContext) -> tuple[Action, dict, float]:
        """The action with its point refined by decomposed grounding, the usage entry saying what was done, and
        the milliseconds it took (spent waiting for the models)."""
        if self.decomposed is None:
            return action, {}, 0.0
        done = [step.tool_call for step in context.history if step.tool_call is not None]
        grounding = GroundingContext(context.instruction, tuple(done), context.screen)
        element = action_text or context.instruction
        try:
            refined, refinement = self.decomposed.refine_action(action, context.observation.png, element, grounding)
        except LLMError as error:  # only a refused request comes here: a person must fix the grounding endpoint
            raise DecisionUnavailable(f"decomposed grounding: {error}") from error
        if refinement is None:
            return refined, {}, 0.0
        return refined, {"decomposed_grounding": refinement.as_json()}, refinement.elapsed_ms
