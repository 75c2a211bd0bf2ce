"""Decomposed grounding with selection (UI-AGILE section 3.4): a closer look at where a coordinate action points.

A high-resolution screenshot shown whole is mostly background, which distracts a grounding model (the paper's
"visual noise"). So after the agent has chosen a click, the screen is looked at in parts:

1. **Decomposition**: `TileLayout` splits the screen into a grid of overlapping tiles (UI-AGILE 4.1: 4 tiles,
   each 60% of the screen's width and height, neighbours overlapping by 10% of the side). Two tiles of 60% that
   overlap by exactly 10% would span 110% of the side, so the tiles are spread from edge to edge and the 10% is
   the least overlap allowed: with the defaults neighbours overlap by 20%, and no part of the screen is left out.
2. **Candidate generation**: each tile, cut from the full-resolution screenshot and resized as the model is
   shown any screenshot of that size (its `ModelSpace`: smart_resize, with its image scale), is sent with the
   element to find (the step's `<action>` text, or the task for a pure grounding request); the model answers
   a point in the tile image's coordinates, or that the element is not in this tile.
3. **Element image extraction**: around each candidate, a box of 14% of the tile's width and height (the
   paper's size), cut from the full screenshot so an element on a tile's edge is seen whole; black beyond the
   screen's edge, so the candidate is always at the crop's centre; shown at its own pixels (smart_resize, no
   image scale: the selector writes no coordinates). Candidates that land on the same pixel
   (neighbouring tiles see the same element) are asked about once.
4. **Selection**: the selector model (by default the same endpoint; the paper used Qwen2.5-VL-7B-Instruct) is
   asked whether the element at the crop's centre is the one described. A candidate's score is the paper's:
   the probability of "Yes" (against "No") in the first token's log-probabilities, asked for with every
   question; an endpoint that gives none is scored by its text, Yes 1 and No 0; an endpoint that refuses the
   parameter is asked without it from then on. Each candidate records which (`scored_by`). The candidate with
   the highest score above 0 wins, ties going to the one nearest the agent's own point; it is mapped back to
   full-screen device pixels.

Every failure keeps the agent's own point and says why in the `Refinement` (a tile's request failed or its
reply was junk: that tile gives no candidate; no candidate anywhere; none judged to match; an unreadable
screenshot). An endpoint that refuses the request (`LLMRejected`: a key, a model name) is raised instead, as
a person must fix it. The requests of one stage go out together, `concurrency` at a time.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from annotator.domain import actions as act
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.grounding_prompt import (
    GroundingContext,
    coordinate_note,
    locate_messages,
    read_point,
    read_yes_no,
    relevance_messages,
    yes_probability,
)
from annotator.domain.model_space import ModelSpace, model_space
from annotator.imaging.decode import Picture, UnreadableImage, decoded_rgb
from annotator.imaging.encode import data_url, png_bytes
from annotator.imaging.resize import cut, resized
from annotator.llm.client import Completion, LLMClient, LLMError, LLMRejected

CROP_SHARE = 0.14  # UI-AGILE 4.1: the element image is 14% of the sub-image's width and height
TOP_LOGPROBS = 5  # alternatives of the first token asked for: "Yes", "No" and their spellings
SCORED_BY_PROBABILITY, SCORED_BY_TEXT = "yes probability", "text"
GROUNDING_MAX_TOKENS = 128  # a point or a word: a short answer, so a runaway reply costs little
T = TypeVar("T")


def _spans(length: int, count: int, share: float) -> list[tuple[int, int]]:
    """`count` spans of `share` of `length`, evenly spaced from one end to the other."""
    if count == 1:
        return [(0, length)]
    size = max(1, round(length * share))
    return [(start, start + size) for start in (round(i * (length - size) / (count - 1)) for i in range(count))]


@dataclass(frozen=True)
class TileLayout:
    """A grid of `columns` x `rows` tiles, each `share` of the screen's width and height (the whole side along
    an axis with one tile), spaced evenly from edge to edge; neighbours must overlap by at least `min_overlap`
    of the side, so an element on a seam is whole in one of them. Defaults: UI-AGILE 4.1's 4 tiles of 60%."""

    columns: int = 2
    rows: int = 2
    share: float = 0.6
    min_overlap: float = 0.1

    def __post_init__(self) -> None:
        if self.columns < 1 or self.rows < 1:
            raise ValueError(f"tiles: at least 1 column and 1 row, got {self.columns}x{self.rows}")
        if not (0 < self.share <= 1 and 0 <= self.min_overlap < 1):
            raise ValueError(f"tile share must be in (0, 1] and min_overlap in [0, 1), got {self.share}, {self}")
        for count in (self.columns, self.rows):
            if count > 1 and self.overlap(count) < self.min_overlap - 1e-9:
                raise ValueError(
                    f"{count} tiles of {self.share:.0%} of a side overlap by {self.overlap(count):.0%} of it, under "
                    f"the {self.min_overlap:.0%} asked for (below 0%: a gap); use more tiles or larger ones"
                )

    def overlap(self, count: int) -> float:
        """How much two neighbours of `count` tiles along a side overlap, as a share of the side."""
        return 1.0 if count == 1 else self.share - (1 - self.share) / (count - 1)

    def tiles(self, screen: ScreenSize) -> list[Box]:
        """The tiles in device pixels, row by row from the top left; together they cover the screen."""
        xs = _spans(screen.width, self.columns, self.share)
        ys = _spans(screen.height, self.rows, self.share)
        return [Box(x1, y1, x2, y2) for y1, y2 in ys for x1, x2 in xs]

    def as_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def size_of(box: Box) -> ScreenSize:
    return ScreenSize(int(box.x2 - box.x1), int(box.y2 - box.y1))


def crop_box(point: tuple[float, float], tile: Box, share: float = CROP_SHARE) -> Box:
    """The element image's box: `share` of the tile's width and height, centred on `point` (device pixels)."""
    width, height = max(1, round((tile.x2 - tile.x1) * share)), max(1, round((tile.y2 - tile.y1) * share))
    left, top = round(point[0] - width / 2), round(point[1] - height / 2)
    return Box(left, top, left + width, top + height)


def screen_point(answer: tuple[float, float], tile: Box, space: ModelSpace) -> tuple[int, int] | None:
    """A point the model wrote on a tile's image, in full-screen device pixels (on the tile's last pixel at
    its far edge); None when it lies outside the image the model was shown."""
    size = size_of(tile)
    extent = space.extent(size)
    if not (0 <= answer[0] <= extent[0] and 0 <= answer[1] <= extent[1]):
        return None
    x, y = space.device_point(answer, size)
    return (min(int(tile.x1) + x, int(tile.x2) - 1), min(int(tile.y1) + y, int(tile.y2) - 1))


def image_part(part: Picture, space: ModelSpace) -> dict[str, Any]:
    """A cut part as the model is shown any image of that size (its smart_resize and image scale)."""
    png = png_bytes(resized(part, space.image_size(ScreenSize(*part.size))))
    return {"type": "image_url", "image_url": {"url": data_url(png)}}


@dataclass(frozen=True)
class TileAnswer:
    tile: Box
    point: tuple[int, int] | None  # full-screen device pixels; None: not here, or `problem`
    problem: str | None = None


@dataclass(frozen=True)
class Judgement:
    point: tuple[int, int]
    score: float | None  # P(yes) or 1.0 / 0.0 for a yes / no text; None: `problem`
    problem: str | None = None
    scored_by: str | None = None  # SCORED_BY_PROBABILITY or SCORED_BY_TEXT


@dataclass
class Refinement:
    """What decomposed grounding did with one point: `point` (device pixels) is the chosen candidate's when
    `refined`, else the agent's own, and `note` says which and why."""

    original: tuple[float, float]
    point: tuple[float, float]
    refined: bool
    note: str
    tiles: list[TileAnswer] = field(default_factory=list)
    judgements: list[Judgement] = field(default_factory=list)
    requests: int = 0
    tokens: int = 0
    elapsed_ms: float = 0.0

    def as_json(self) -> dict[str, Any]:
        """The record kept with the step or prediction (its usage), so a reader sees why a point moved."""
        return {
            "refined": self.refined,
            "note": self.note,
            "original": list(self.original),
            "point": list(self.point),
            "tiles": [
                {"region": t.tile.as_list(), "point": _listed(t.point), "problem": t.problem} for t in self.tiles
            ],
            "candidates": [
                {"point": list(j.point), "score": j.score, "scored_by": j.scored_by, "problem": j.problem}
                for j in self.judgements
            ],
            "requests": self.requests,
            "tokens": self.tokens,
            "ms": round(self.elapsed_ms, 1),
        }


def _listed(point: tuple[int, int] | None) -> list[int] | None:
    return None if point is None else list(point)


class DecomposedGrounding:
    """Refines coordinate actions on a screenshot; see the module docstring. `client` grounds on each tile (the
    agent's model), `selector` answers the relevance questions (default: `client`); `space` is how that model
    sees images and writes points (default: Qwen2.5-VL pixels after smart_resize, as the collecting agent);
    `swipes` also refines a swipe's start (moving its end alike, so the gesture keeps its direction and length).
    The clients are the caller's to close."""

    def __init__(
        self,
        client: LLMClient,
        *,
        selector: LLMClient | None = None,
        space: ModelSpace | None = None,
        layout: TileLayout | None = None,
        crop_share: float = CROP_SHARE,
        swipes: bool = False,
        concurrency: int = 4,
    ) -> None:
        if not 0 < crop_share <= 1 or concurrency < 1:
            raise ValueError(
                f"crop_share must be in (0, 1] and concurrency at least 1, got {crop_share}, {concurrency}"
            )
        self.client, self.selector = client, selector or client
        self.space = space or model_space("qwen2.5-vl")
        # The selector writes no point, so a crop is shown at its own pixels (smart_resize only): the model's image
        # scale (Mobile-R1 halves screenshots) would leave a 14% crop too few pixels to tell elements apart.
        self.crop_space = dataclasses.replace(self.space, image_scale=1.0)
        self.layout, self.crop_share = layout or TileLayout(), crop_share
        self.swipes, self.concurrency = swipes, concurrency
        self._logprobs = True  # asked with each relevance question until the selector's endpoint refuses them

    def settings(self) -> dict[str, Any]:
        """What decides the refinement (the evaluation's fingerprint includes it): not the servers' URLs."""
        return self.layout.as_json() | {
            "crop_share": self.crop_share,
            "swipes": self.swipes,
            "space": self.space.name,
            "min_pixels": self.space.resize.min_pixels,
            "max_pixels": self.space.resize.max_pixels,
            "image_scale": self.space.image_scale,
            "model": self.client.config.model,
            "selector_model": self.selector.config.model,
        }

    def refine_action(
        self, action: act.Action, screenshot: bytes, element: str, context: GroundingContext
    ) -> tuple[act.Action, Refinement | None]:
        """`action` (device pixels) with its point refined; None for an action without a point to refine."""
        if isinstance(action, act.Click | act.LongPress):
            refinement = self.refine(screenshot, action.coordinate, element, context)
            return dataclasses.replace(action, coordinate=refinement.point), refinement
        if isinstance(action, act.Swipe) and self.swipes:
            refinement = self.refine(screenshot, action.coordinate, element, context)
            dx, dy = (new - old for new, old in zip(refinement.point, action.coordinate, strict=True))
            last_x, last_y = context.screen.width - 1, context.screen.height - 1
            end = (min(max(action.coordinate2[0] + dx, 0), last_x), min(max(action.coordinate2[1] + dy, 0), last_y))
            return dataclasses.replace(action, coordinate=refinement.point, coordinate2=end), refinement
        return action, None

    def refine(
        self, screenshot: bytes, point: tuple[float, float], element: str, context: GroundingContext
    ) -> Refinement:
        """The selected candidate for `element` on the screenshot (`context.screen`), or `point` kept, and why."""
        started = time.perf_counter()
        original = (point[0], point[1])
        kept = Refinement(original, original, False, "")
        if not element.strip():
            kept.note = "kept the agent's point: there is no element text to look for"
            return kept
        try:
            rgb = decoded_rgb(screenshot)
        except UnreadableImage as error:
            kept.note = f"kept the agent's point: the screenshot is {error}"
            return kept
        if rgb.size != (context.screen.width, context.screen.height):
            kept.note = (
                f"kept the agent's point: the screenshot is {rgb.width}x{rgb.height}, the screen {context.screen}"
            )
            return kept
        result = self._select(rgb, kept, element, context)
        result.elapsed_ms = (time.perf_counter() - started) * 1000
        return result

    def _select(self, image: Picture, kept: Refinement, element: str, context: GroundingContext) -> Refinement:
        tiles = self.layout.tiles(context.screen)
        # parts are cut here, on the caller's thread: cheap, and one image is never cropped from several at once
        answers = self._together([partial(self._locate, cut(image, tile), tile, element, context) for tile in tiles])
        kept.tiles = [answer for answer, _ in answers]
        kept.requests, kept.tokens = len(answers), sum(tokens for _, tokens in answers)
        found = {answer.point: answer.tile for answer in kept.tiles if answer.point is not None}
        if not found:
            kept.note = "kept the agent's point: no tile gave a candidate (" + _tally(kept.tiles) + ")"
            return kept
        crops = {point: crop_box(point, tile, self.crop_share) for point, tile in found.items()}
        judged = self._together(
            [partial(self._judge, cut(image, box), point, box, element, context) for point, box in crops.items()]
        )
        kept.judgements = [judgement for judgement, _ in judged]
        kept.requests, kept.tokens = kept.requests + len(judged), kept.tokens + sum(tokens for _, tokens in judged)
        best = _best(kept.judgements, kept.original)
        if best is None:
            scores = ", ".join(_shown_score(j) for j in kept.judgements)
            kept.note = f"kept the agent's point: no candidate was judged to be the element ({scores})"
            return kept
        kept.point, kept.refined = best.point, True
        kept.note = (
            f"chose {list(best.point)} (relevance {best.score:.2f}, by {best.scored_by}) of {len(found)} "
            "candidate point(s)"
        )
        return kept

    def _together(self, jobs: Sequence[Callable[[], T]]) -> list[T]:
        """Run the jobs `concurrency` at a time; a refused request (LLMRejected) is raised after all end."""
        with ThreadPoolExecutor(min(self.concurrency, len(jobs)), thread_name_prefix="grounding") as pool:
            futures = [pool.submit(job) for job in jobs]
        return [future.result() for future in futures]

    def _locate(self, part: Picture, tile: Box, element: str, context: GroundingContext) -> tuple[TileAnswer, int]:
        note = coordinate_note(self.space, size_of(tile))
        messages = locate_messages(context, tile, element, image_part(part, self.space), note)
        text, tokens, problem = _ask(self.client, messages)
        if text is None:
            return TileAnswer(tile, None, problem), tokens
        answer = read_point(text)
        if answer.problem is not None or answer.point is None:
            return TileAnswer(tile, None, answer.problem), tokens
        point = screen_point(answer.point, tile, self.space)
        outside = None if point is not None else f"the point {list(answer.point)} is outside the tile's image"
        return TileAnswer(tile, point, outside), tokens

    def _judge(
        self, part: Picture, point: tuple[int, int], box: Box, element: str, context: GroundingContext
    ) -> tuple[Judgement, int]:
        messages = relevance_messages(context, box, element, image_part(part, self.crop_space))
        completion, problem = self._ask_with_logprobs(messages)
        if completion is None:
            return Judgement(point, None, problem), 0
        tokens = completion.usage.get("total_tokens") or 0
        probability = yes_probability(completion.first_token_logprobs or {})
        if probability is not None:
            return Judgement(point, probability, scored_by=SCORED_BY_PROBABILITY), tokens
        verdict = read_yes_no(completion.text)
        if verdict is None:
            return Judgement(point, None, f"neither yes nor no: {completion.text.strip()[:60]!r}"), tokens
        return Judgement(point, 1.0 if verdict else 0.0, scored_by=SCORED_BY_TEXT), tokens

    def _ask_with_logprobs(self, messages: list[dict[str, Any]]) -> tuple[Completion | None, str | None]:
        """The selector's completion with the first token's log-probabilities asked for (until the endpoint
        refuses the parameter: then without); (None, why) on a failure that is not a refused request."""
        try:
            top = TOP_LOGPROBS if self._logprobs else None
            return self.selector.complete(messages, max_tokens=GROUNDING_MAX_TOKENS, top_logprobs=top), None
        except LLMRejected as refused:
            if not self._logprobs or "logprob" not in refused.message.lower():
                raise
            self._logprobs = False  # this endpoint has no log-probabilities: its yes / no text is the score
            return self._ask_with_logprobs(messages)
        except LLMError as error:
            return None, error.message


def _ask(client: LLMClient, messages: list[dict[str, Any]]) -> tuple[str | None, int, str | None]:
    """(reply text, tokens used, problem); a refused request is raised, any other failure is a problem."""
    try:
        completion = client.complete(messages, max_tokens=GROUNDING_MAX_TOKENS)
    except LLMRejected:
        raise
    except LLMError as error:
        return None, 0, error.message
    return completion.text, completion.usage.get("total_tokens") or 0, None


def _best(judgements: list[Judgement], original: tuple[float, float]) -> Judgement | None:
    """The highest score above 0; among equals, the candidate nearest the agent's own point."""
    scored = [j for j in judgements if j.score is not None and j.score > 0]
    return min(scored, key=lambda j: (-(j.score or 0.0), math.dist(j.point, original)), default=None)


def _tally(tiles: list[TileAnswer]) -> str:
    absent = sum(answer.problem is None for answer in tiles)
    problems = [answer.problem for answer in tiles if answer.problem is not None]
    said = [f"{absent} of {len(tiles)} said the element is not there"] if absent else []
    return "; ".join(said + [f"a tile's answer was unusable: {problem}" for problem in problems[:2]])


def _shown_score(judgement: Judgement) -> str:
    return f"{list(judgement.point)}: {'no' if judgement.score == 0 else judgement.problem}"
