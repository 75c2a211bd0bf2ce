"""How much of a model's reply is kept: the head and the tail of a long one, and a note of its full size.

A server that ignores max_tokens (or loops) can send megabytes; stored as they came, a few such replies with their
retries grew a database from 0.4 to 30 MB in two steps. What is worth keeping of a runaway reply is how it started
(the reasoning, the tool call) and how it ended; the middle is left out with a marker that says how much of how
much, so the stored text still tells what happened. Every place that stores a model's reply text uses this.
"""

from __future__ import annotations

from typing import Any

MAX_STORED_CHARS = 64 * 1024  # far above a real answer (a few thousand characters at most)
_TAIL_CHARS = 16 * 1024


def capped_text(text: str, limit: int = MAX_STORED_CHARS) -> str:
    """`text` itself when it fits in `limit` characters; else its head and tail around a marker naming the full
    length (the result stays a little over `limit` by the marker's length)."""
    if len(text) <= limit:
        return text
    tail = min(_TAIL_CHARS, limit // 4)
    head = limit - tail
    left_out = len(text) - head - tail
    marker = f"\n[… {left_out:,} of {len(text):,} characters left out here: the reply was too long to keep …]\n"
    return text[:head] + marker + text[len(text) - tail :]


def capped_optional(text: str | None) -> str | None:
    return None if text is None else capped_text(text)


def was_capped(text: str) -> bool:
    return len(text) > MAX_STORED_CHARS


def capped_attempts(attempts: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Earlier replies of a step (`{"reply": ..., "problems": ..., ...}`) with each reply capped, and the full
    length of a capped one under `reply_chars`."""
    if attempts is None:
        return None
    kept = []
    for attempt in attempts:
        reply = attempt.get("reply")
        if isinstance(reply, str) and was_capped(reply):
            attempt = attempt | {"reply": capped_text(reply), "reply_chars": len(reply)}
        kept.append(attempt)
    return kept
