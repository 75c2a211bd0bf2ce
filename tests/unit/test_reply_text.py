"""A runaway reply is stored as its head and tail with a note of its full size."""

from __future__ import annotations

from annotator.domain.reply_text import MAX_STORED_CHARS, capped_attempts, capped_text


def test_a_long_reply_keeps_its_head_and_tail_and_says_how_long_it_was() -> None:
    reply = "<think>开始" + "啊" * 5_000_000 + "</think><tool_call>结尾</tool_call>"
    kept = capped_text(reply)
    assert len(kept) < MAX_STORED_CHARS + 200
    assert kept.startswith("<think>开始") and kept.endswith("<tool_call>结尾</tool_call>")
    assert f"of {len(reply):,} characters left out" in kept
    assert capped_text("短的回复") == "短的回复"


def test_attempts_keep_their_problems_and_note_the_full_length_of_a_capped_reply() -> None:
    attempts = [{"reply": "x" * (MAX_STORED_CHARS + 1), "problems": ["no tool call"]}, {"reply": "ok", "problems": []}]
    first, second = capped_attempts(attempts) or []
    assert first["problems"] == ["no tool call"] and first["reply_chars"] == MAX_STORED_CHARS + 1
    assert len(first["reply"]) < MAX_STORED_CHARS + 200 and second == {"reply": "ok", "problems": []}
