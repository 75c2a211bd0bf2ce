"""The tokenizers the project builds keep every tag of the response format through a decode that skips special tokens
(as TRL's trainers, the evaluation's local policy and the task-level rollouts decode), and an export's own answers,
encoded and decoded by the tiny model's processor as a generated reply is, score 100% and earn the full reward: the
plumbing from tokens to scores is right before any model is asked to learn."""

from __future__ import annotations

from pathlib import Path

import pytest
from datasets import load_from_disk
from transformers import AutoProcessor

from annotator.domain.export_manifest import read_export_manifest
from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import model_space
from trainer_bridge.evaluate.local_policy import decode_reply
from trainer_bridge.evaluate.scoring import score_reply
from trainer_bridge.rewards.recipes import trl_rewards
from trainer_bridge.train.common import training_texts
from trainer_bridge.train.tiny import SIZES, _tokenizer, build_tiny_qwen, vocabulary

pytestmark = [pytest.mark.slow, pytest.mark.train]

TAGS = ("<think>", "</think>", "<action>", "</action>", "<tool_call>", "</tool_call>")
REPLY = (
    "<think>\n当前状态：“设置”首页。下一步：点击“WLAN”。\n</think>\n<action>\n点击“WLAN”\n</action>\n<tool_call>\n"
    '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [120, 340]}}\n</tool_call>'
)


def test_the_one_line_check_of_the_issue_prints_the_tags() -> None:
    tokenizer = _tokenizer()
    ids = tokenizer("<tool_call>x</tool_call>")["input_ids"]
    assert tokenizer.decode(ids, skip_special_tokens=True) == "<tool_call>x</tool_call>"


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("trained_on", ["prompts", "export"])
def test_every_tag_survives_a_decode_that_skips_special_tokens(
    size: str, trained_on: str, exports: dict[str, Path]
) -> None:
    corpus = training_texts(load_from_disk(str(exports["sft"]))["train"]) if trained_on == "export" else None
    tokenizer = _tokenizer(corpus, vocabulary(size))
    ids = tokenizer(REPLY + "<|im_end|><|endoftext|>")["input_ids"]
    assert decode_reply(tokenizer, ids) == REPLY  # the end of turn and the padding go, every tag stays
    assert not set(TAGS) & set(tokenizer.all_special_tokens)


@pytest.fixture(scope="module")
def tiny_on_export(exports: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model as a recipe builds it: its tokenizer trained on the export it trains on."""
    texts = training_texts(load_from_disk(str(exports["sft"]))["train"])
    return build_tiny_qwen(tmp_path_factory.mktemp("tiny-on-export"), texts)


def test_the_saved_processor_keeps_the_tags_too(tiny_on_export: Path) -> None:
    processor = AutoProcessor.from_pretrained(tiny_on_export)
    ids = processor.tokenizer(REPLY + "<|im_end|>")["input_ids"]
    assert decode_reply(processor, ids) == REPLY
    assert processor.tokenizer.convert_ids_to_tokens(processor.tokenizer("<tool_call>")["input_ids"]) == ["<tool_call>"]


def test_an_exports_own_answers_decoded_as_replies_score_everything(
    tiny_on_export: Path, exports: dict[str, Path]
) -> None:
    processor = AutoProcessor.from_pretrained(tiny_on_export)
    rows = load_from_disk(str(exports["grpo-action"]))["train"]
    manifest = read_export_manifest(exports["grpo-action"])
    space = model_space(manifest.coords, min_pixels=manifest.min_pixels, max_pixels=manifest.max_pixels)
    replies = [decode_reply(processor, processor.tokenizer(row["answer"] + "<|im_end|>")["input_ids"]) for row in rows]
    assert replies == list(rows["answer"])
    for row, reply in zip(rows, replies, strict=True):
        scored = score_reply(reply, row, space, ScreenSize(row["screen_width"], row["screen_height"]))
        assert (scored.format_ok, scored.type_match, scored.exact_match, scored.step_success) == (True,) * 4, reply
    functions, weights = trl_rewards("mobile-r1")
    columns = {name: list(rows[name]) for name in rows.column_names if name != "images"}  # as TRL passes them
    completions = [[{"role": "assistant", "content": reply}] for reply in replies]
    totals = [
        sum(w * s for w, s in zip(weights, scores, strict=True))
        for scores in zip(*(f(completions, **columns) for f in functions), strict=True)
    ]
    assert totals == [sum(weights)] * len(rows)  # R_Act + R_Fmt at their maximum on every step
