"""Instruction generation with the Mobile-R1 Fig. 7 prompt (Appendix B.1).

The paper asked Claude 3.5 Sonnet for ten tasks per app, in Chinese, with concrete parameters, and
had people review them. Models answer such a request with a numbered or bulleted list, often with a
line before it ("以下是10个任务：") and markdown around the items, so the reply is read leniently:
numbered (or else bulleted) items are the tasks, and their numbering, bold titles and quotes are
stripped and duplicates dropped. The review (approve / reject) is the caller's job: these are drafts.
"""

from __future__ import annotations

import re

from annotator.llm.client import LLMBadReply, LLMClient
from annotator.resources import read_text

PROMPT = "prompts/generate_instructions.txt"
MAX_TASKS = 100
TOKENS_PER_TASK = 150  # a Chinese task with parameters is 30-80 tokens; room for markdown around it
MAX_TASK_CHARS = 500  # a task is a sentence or two; a longer "item" is a runaway reply, not an instruction

_NUMBERED = re.compile(
    r"^(?:\d{1,3}\s*[.．、)）:：]|[(（]\d{1,3}[)）]|第\s*\d{1,3}\s*[个条项]?\s*[：:.、]|(?:任务|Task)\s*\d{1,3}\s*[：:.、])\s*"
    r"(?P<body>.+)$",
    re.IGNORECASE,
)
_BULLETED = re.compile(r"^[-*•·●◦+]\s+(?P<body>.+)$")
_BOLD_TITLE = re.compile(r"^\*\*(?P<title>[^*]{1,30})\*\*\s*[：:]\s*(?P<rest>.+)$")
_LABEL = re.compile(r"^(?:任务(?:\s*\d{1,3})?|指令|Task(?:\s*\d{1,3})?)\s*[：:]\s*", re.IGNORECASE)
_PAIRED = {"“": "”", "‘": "’", "「": "」", "『": "』"}
_PLAIN_QUOTES = "\"'`"


def instruction_prompt(app: str, n: int) -> str:
    """The Fig. 7 prompt with the app's name and the number of tasks filled in."""
    if not app.strip():
        raise ValueError("app: empty; give the app's name as users know it, e.g. 淘宝")
    if not 1 <= n <= MAX_TASKS:
        raise ValueError(f"n must be between 1 and {MAX_TASKS}, got {n}")
    return read_text(PROMPT).replace("{app}", app.strip()).replace("{n}", str(n)).strip()


def generate_instructions(client: LLMClient, app: str, n: int) -> list[str]:
    """Ask the model for ``n`` tasks for ``app``; at most ``n`` distinct ones come back, in the model's order."""
    prompt = instruction_prompt(app, n)
    max_tokens = max(client.config.max_tokens, TOKENS_PER_TASK * n)
    reply = client.complete([{"role": "user", "content": prompt}], max_tokens=max_tokens)
    tasks = parse_task_list(reply.text)
    if not tasks:
        shown = reply.text.strip()[:200]
        raise LLMBadReply(f"the model's reply holds no tasks (expected a numbered list of {n}): {shown!r}")
    return tasks[:n]


def parse_task_list(text: str) -> list[str]:
    """The tasks in a list-shaped reply: its numbered items, or its bulleted ones when nothing is numbered.

    Numbered items win so that details under a task ("   - 颜色：白色") are not taken for tasks; plain
    lines never count, so a refusal or a remark ("以下是10个任务：") does not become an instruction; nor does an
    item longer than MAX_TASK_CHARS (a model that ran on).
    """
    lines = [_unwrap(line) for line in text.splitlines()]
    numbered = [m.group("body") for line in lines if (m := _NUMBERED.match(line))]
    bulleted = [m.group("body") for line in lines if (m := _BULLETED.match(line))]
    return _distinct(task for body in numbered or bulleted if len(task := _clean(body)) <= MAX_TASK_CHARS)


def _unwrap(line: str) -> str:
    """A line without surrounding space, a markdown heading mark or bold wrapped around all of it."""
    line = re.sub(r"^#{1,6}\s*", "", line.strip())
    if line.startswith("**") and line.endswith("**") and line.count("**") == 2:
        line = line[2:-2].strip()
    return line


def _clean(body: str) -> str:
    body = body.strip()
    titled = _BOLD_TITLE.match(body)
    if titled:
        body = titled.group("rest")
    body = _LABEL.sub("", body.replace("**", "")).strip()
    while _wrapped_in_quotes(body):
        body = body[1:-1].strip()
    return re.sub(r"\s+", " ", body)


def _wrapped_in_quotes(text: str) -> bool:
    """True for “整句” but not for “A”和“B”, where the quotes belong to the words inside."""
    if len(text) < 2:
        return False
    first, last, inner = text[0], text[-1], text[1:-1]
    if first in _PLAIN_QUOTES:
        return last == first and first not in inner
    if _PAIRED.get(first) != last:
        return False
    depth = 0
    for char in inner:
        depth += (char == first) - (char == last)
        if depth < 0:
            return False
    return depth == 0


def _distinct(items) -> list[str]:
    seen: set[str] = set()
    result = []
    for item in items:
        if item and item not in seen:
            seen.add(item)
            result.append(item)
    return result
