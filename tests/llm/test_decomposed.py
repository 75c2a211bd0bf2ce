"""Decomposed grounding with selection (UI-AGILE 3.4): the tiles, the mapping back, the selection and every
fallback, against a chat server on loopback through the real openai client (the virtual phone's screen as the
screenshot)."""

from __future__ import annotations

import base64
import doctest
import io
import itertools
import json
import math

import pytest
from PIL import Image

from annotator.demo.phone.phone import VirtualPhone
from annotator.domain import grounding_prompt
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.grounding_prompt import GroundingContext, read_grounding_request
from annotator.domain.model_space import ModelSpace, model_space
from annotator.llm.client import LLMClient, LLMConfig, LLMRejected
from annotator.llm.decomposed import DecomposedGrounding, TileLayout, crop_box, screen_point
from tests.chat_server import ChatServer, Reply, Seen, chat_completion, error_body

PHONE = ScreenSize(1080, 2400)
CONTEXT = GroundingContext("打开设置", (), PHONE)


@pytest.fixture(scope="module")
def screenshot() -> bytes:
    return VirtualPhone().screencap_png()


def covered(spans: list[tuple[float, float]], length: int) -> bool:
    """Whether the spans together cover [0, length) with no gap."""
    reach = 0.0
    for start, end in sorted(spans):
        if start > reach:
            return False
        reach = max(reach, end)
    return reach >= length


@pytest.mark.parametrize(
    ("layout", "screen"),
    [
        (TileLayout(), PHONE),
        (TileLayout(), ScreenSize(3840, 2160)),
        (TileLayout(), ScreenSize(101, 37)),
        (TileLayout(columns=3, rows=3, share=0.4), ScreenSize(2560, 1440)),
        (TileLayout(columns=1, rows=3), PHONE),
    ],
)
def test_tiles_cover_the_screen_and_neighbours_overlap(layout: TileLayout, screen: ScreenSize) -> None:
    tiles = layout.tiles(screen)
    assert len(tiles) == layout.columns * layout.rows
    xs = sorted({(tile.x1, tile.x2) for tile in tiles})
    ys = sorted({(tile.y1, tile.y2) for tile in tiles})
    assert covered(xs, screen.width) and covered(ys, screen.height)
    assert all(0 <= t.x1 < t.x2 <= screen.width and 0 <= t.y1 < t.y2 <= screen.height for t in tiles)
    for spans, side, count in ((xs, screen.width, layout.columns), (ys, screen.height, layout.rows)):
        share = layout.share if count > 1 else 1.0
        assert all(abs((end - start) - side * share) <= 1 for start, end in spans)
        for (_, end), (start, _) in itertools.pairwise(spans):
            assert end - start >= math.floor(layout.min_overlap * side)  # neighbours overlap by >= 10% of the side


def test_the_default_is_the_papers_four_tiles_of_sixty_percent() -> None:
    assert TileLayout().tiles(PHONE) == [
        Box(0, 0, 648, 1440),
        Box(432, 0, 1080, 1440),
        Box(0, 960, 648, 2400),
        Box(432, 960, 1080, 2400),
    ]


def test_a_layout_that_leaves_a_gap_or_too_little_overlap_is_refused() -> None:
    with pytest.raises(ValueError, match=r"overlap by 0%.*under the 10%"):
        TileLayout(share=0.5)
    with pytest.raises(ValueError, match="at least 1 column"):
        TileLayout(columns=0)


@pytest.mark.parametrize("space_name", ["normalized", "qwen2-vl", "qwen2.5-vl"])
def test_a_point_written_on_a_tile_maps_back_to_the_same_screen_pixel(space_name: str) -> None:
    space = model_space(space_name)
    for tile in TileLayout().tiles(PHONE):
        size = ScreenSize(int(tile.x2 - tile.x1), int(tile.y2 - tile.y1))
        # The model's image of the tile: one of its pixels covers this many of the screen's (1 at 0-1 floats).
        step = max(size.width / space.extent(size)[0], size.height / space.extent(size)[1])
        for x, y in ((tile.x1, tile.y1), (tile.x1 + 123, tile.y1 + 457), (tile.x2 - 1, tile.y2 - 1)):
            written = space.point((x - tile.x1, y - tile.y1), size)
            back = screen_point(tuple(written), tile, space)
            assert back is not None
            tolerance = 0 if space_name == "normalized" else math.ceil(step / 2)
            assert abs(back[0] - x) <= tolerance and abs(back[1] - y) <= tolerance


def test_a_point_outside_the_tiles_image_is_no_candidate() -> None:
    space = model_space("qwen2.5-vl")
    tile = TileLayout().tiles(PHONE)[1]
    assert screen_point((-1, 10), tile, space) is None
    assert screen_point((10, 5000), tile, space) is None
    assert screen_point((644, 1428), tile, space) == (1079, 1439)  # the far edge is the tile's last pixel


def test_the_element_image_is_fourteen_percent_of_the_tile_centred_on_the_candidate() -> None:
    box = crop_box((676, 730), Box(432, 0, 1080, 1440))
    assert (box.x2 - box.x1, box.y2 - box.y1) == (91, 202)
    assert abs(box.center[0] - 676) <= 0.5 and abs(box.center[1] - 730) <= 0.5


class Answers:
    """A chat server's replies worked out from each grounding request: `locate(region)` and `judge(region)`."""

    def __init__(self, locate, judge) -> None:
        self.locate, self.judge = locate, judge

    def __call__(self, seen: Seen) -> Reply:
        request = read_grounding_request(seen.body["messages"])
        assert request is not None, "only grounding requests are expected"
        answer = self.locate(request.region) if request.kind == "locate" else self.judge(request.region)
        if isinstance(answer, Reply):
            return answer
        return Reply(body=chat_completion(answer))


def refine(answers: Answers, screenshot: bytes, point=(300, 1200), **options):
    with ChatServer([], respond=answers) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, model="m", max_retries=0))
        try:
            grounding = DecomposedGrounding(client, **options)
            return grounding.refine(screenshot, point, "点击“设置”", CONTEXT), server.seen
        finally:
            client.close()


def on_tile(target: tuple[int, int], space: ModelSpace | None = None):
    """Locate answers a perfect grounder gives for a screen point: its pixel on each tile holding it."""
    space = space or model_space("qwen2.5-vl")

    def locate(region: Box) -> str:
        if not region.contains(*target) or target[0] == region.x2 or target[1] == region.y2:
            return '{"point": null}'
        size = ScreenSize(int(region.x2 - region.x1), int(region.y2 - region.y1))
        return json.dumps({"point": space.point((target[0] - region.x1, target[1] - region.y1), size)})

    return locate


def test_the_candidate_judged_yes_is_chosen_and_mapped_back(screenshot: bytes) -> None:
    target = (675, 1200)  # in all four tiles: the overlapping tiles agree, so one question is asked
    refinement, seen = refine(Answers(on_tile(target), lambda region: "Yes"), screenshot)
    assert refinement.refined and math.dist(refinement.point, target) <= 1
    assert refinement.requests == len(seen) == 4 + 1
    assert refinement.as_json()["tokens"] == 18 * 5 and "relevance 1.00" in refinement.note


def test_of_several_yes_the_nearest_to_the_agents_point_wins(screenshot: bytes) -> None:
    def locate(region: Box) -> str:  # each tile sees a different element
        return json.dumps({"point": [100, 100 + 10 * region.x1 // 432 + 40 * region.y1 // 960]})

    refinement, _ = refine(Answers(locate, lambda region: "Yes, it is."), screenshot, point=(540, 1000))
    assert refinement.refined
    assert refinement.point == min((j.point for j in refinement.judgements), key=lambda p: math.dist(p, (540, 1000)))


def test_a_no_loses_to_a_yes(screenshot: bytes) -> None:
    def judge(region: Box) -> str:
        return "Yes" if region.center[1] > 1200 else "No"

    refinement, _ = refine(Answers(lambda region: '{"point": [300, 700]}', judge), screenshot, point=(10, 10))
    assert refinement.refined and refinement.point[1] > 1200


def test_the_selection_scores_by_the_probability_of_yes_where_the_endpoint_gives_it(screenshot: bytes) -> None:
    """UI-AGILE 3.4 scores a candidate by the "Yes" logit: of two candidates both answered "Yes", the surer one
    wins although the other is nearer the agent's point."""
    upper, lower = (300, 700), (300, 1700)

    def locate(region: Box) -> str:
        return json.dumps({"point": list(upper if region.y1 == 0 else (lower[0], lower[1] - region.y1))})

    def judge(region: Box) -> Reply:
        sure = region.center[1] > 1200  # the lower candidate: P(yes) 0.9 against 0.6 for the upper one
        yes = 0.9 if sure else 0.6
        return Reply(body=chat_completion("Yes", first_token={"Yes": math.log(yes), "No": math.log(1 - yes)}))

    refinement, seen = refine(Answers(locate, judge), screenshot, point=(300, 700))
    assert refinement.refined and refinement.point[1] > 1200 and "by yes probability" in refinement.note
    scores = sorted({round(c["score"], 6) for c in refinement.as_json()["candidates"]})
    assert scores == pytest.approx([0.6, 0.9]) and all(
        c["scored_by"] == "yes probability" for c in refinement.as_json()["candidates"]
    )
    questions = [s.body for s in seen if read_grounding_request(s.body["messages"]).kind != "locate"]
    assert questions and all(body["logprobs"] is True and body["top_logprobs"] == 5 for body in questions)


def test_an_endpoint_without_logprobs_is_scored_by_its_text_and_asked_without_them_after(screenshot: bytes) -> None:
    def judge(region: Box) -> Reply:
        return Reply(body=chat_completion("Yes"))

    def refusing(seen: Seen) -> Reply:
        if seen.body.get("logprobs"):
            return Reply(status=400, body=error_body("logprobs are not supported by this model"))
        return Answers(on_tile((675, 1200)), judge)(seen)

    with ChatServer([], respond=refusing) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, model="m", max_retries=0))
        try:
            refinement = DecomposedGrounding(client).refine(screenshot, (300, 1200), "点击“设置”", CONTEXT)
        finally:
            client.close()
    assert refinement.refined and "by text" in refinement.note
    asked = [s.body for s in server.seen if read_grounding_request(s.body["messages"]).kind != "locate"]
    assert [bool(body.get("logprobs")) for body in asked] == [True, False]  # refused once, then asked without


@pytest.mark.parametrize(
    ("locate", "judge", "why"),
    [
        (lambda region: "I think it is the gear icon", lambda region: "Yes", "a tile's answer was unusable"),
        (lambda region: '{"point": "top left"}', lambda region: "Yes", "is not two finite numbers"),
        (lambda region: '{"point": [5000, 10]}', lambda region: "Yes", "outside the tile's image"),
        (lambda region: '{"point": null}', lambda region: "Yes", "4 of 4 said the element is not there"),
        (lambda region: '{"point": [100, 100]}', lambda region: "No", "no candidate was judged to be the element"),
        (lambda region: '{"point": [100, 100]}', lambda region: "perhaps", "neither yes nor no"),
        (
            lambda region: Reply(status=500, body=error_body("overloaded", "server_error")),
            lambda region: "Yes",
            "failed with 500",
        ),
    ],
)
def test_junk_replies_and_failures_keep_the_agents_point_and_say_why(screenshot, locate, judge, why) -> None:
    refinement, _ = refine(Answers(locate, judge), screenshot)
    assert not refinement.refined and refinement.point == (300, 1200)
    assert "kept the agent's point" in refinement.note
    assert why in json.dumps(refinement.as_json(), ensure_ascii=False)


def test_a_refused_key_is_raised_not_swallowed(screenshot: bytes) -> None:
    refused = Reply(status=401, body=error_body("bad key", "authentication_error"))
    with pytest.raises(LLMRejected, match="refused the API key"):
        refine(Answers(lambda region: refused, lambda region: "Yes"), screenshot)


def test_nothing_is_asked_without_an_element_or_a_readable_screenshot(screenshot: bytes) -> None:
    with ChatServer([Reply(body=chat_completion("Yes"))]) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, model="m"))
        grounding = DecomposedGrounding(client)
        unnamed = grounding.refine(screenshot, (1, 2), "  ", CONTEXT)
        broken = grounding.refine(screenshot[:500], (1, 2), "点击“设置”", CONTEXT)
        rotated = grounding.refine(screenshot, (1, 2), "点击“设置”", GroundingContext("", (), ScreenSize(2400, 1080)))
        client.close()
        assert server.seen == []
    assert [r.refined for r in (unnamed, broken, rotated)] == [False] * 3
    assert "no element text" in unnamed.note and "not a readable image" in broken.note and "2400x1080" in rotated.note


def test_the_requests_carry_the_tile_at_the_models_size_and_the_context(screenshot: bytes) -> None:
    context = GroundingContext("打开设置", ({"name": "mobile_use", "arguments": {"action": "wait", "time": 1}},), PHONE)
    with ChatServer([], respond=Answers(lambda region: '{"point": null}', lambda region: "No")) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, model="m"))
        DecomposedGrounding(client, space=model_space("qwen2.5-vl", image_scale=0.5)).refine(
            screenshot, (1, 2), "点击“设置”", context
        )
        client.close()
    requests = [read_grounding_request(seen.body["messages"]) for seen in server.seen]  # in no fixed order
    assert sorted(request.region.as_list() for request in requests) == sorted(
        t.as_list() for t in TileLayout().tiles(PHONE)
    )
    assert all(r.kind == "locate" and r.context == context and r.element == "点击“设置”" for r in requests)
    texts = [seen.body["messages"][1]["content"][0]["text"] for seen in server.seen]
    assert all("this image's pixels: it is 336x728" in text for text in texts)  # 648x1440 halved, then smart_resize
    assert {url_size(seen.body["messages"][1]["content"][1]["image_url"]["url"]) for seen in server.seen} == {
        (336, 728)
    }


def test_the_element_image_is_shown_at_its_own_pixels_whatever_the_models_image_scale(screenshot: bytes) -> None:
    target = (675, 730)
    halved = model_space("qwen2.5-vl", image_scale=0.5)
    refinement, seen = refine(Answers(on_tile(target, halved), lambda region: "Yes"), screenshot, space=halved)
    assert refinement.refined and math.dist(refinement.point, target) <= 2
    [question] = [s for s in seen if read_grounding_request(s.body["messages"]).kind == "relevance"]
    assert url_size(question.body["messages"][1]["content"][1]["image_url"]["url"]) == (84, 196)  # 91x202, not halved


def url_size(url: str) -> tuple[int, int]:
    with Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))) as image:
        return image.size


@pytest.mark.slow
def test_the_request_formats_read_back_and_their_doctests_pass() -> None:
    assert doctest.testmod(grounding_prompt).failed == 0
    assert read_grounding_request([{"role": "system", "content": "You are a judge"}]) is None
    bad = [{"role": "system", "content": grounding_prompt.LOCATE_SYSTEM}, {"role": "user", "content": "Task: 1"}]
    with pytest.raises(grounding_prompt.GroundingRequestError, match="one image"):
        read_grounding_request(bad)
