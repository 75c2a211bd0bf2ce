"""The scripted endpoint's answer to a sub-goal scoring request (InfiGUI-R1 3.2.2), deterministic for tests and
the demo: 10 when the reasoning names every quoted element of the reference sub-goal ("点击“搜索”" needs 搜索),
else the share of the reference's characters the reasoning has, scaled to 1-9; 0 for empty reasoning."""

from __future__ import annotations

import json
import re

QUOTED = re.compile(r"[“‘\"]([^”’\"]+)[”’\"]")


def subgoal_score(reasoning: str, reference: str) -> int:
    if not reasoning.strip():
        return 0
    names = QUOTED.findall(reference)
    if names and all(name in reasoning for name in names):
        return 10
    wanted = {char for char in reference if not char.isspace()}
    shared = len(wanted & set(reasoning)) / len(wanted) if wanted else 0.0
    return max(1, min(9, round(shared * 9)))


def subgoal_reply(reasoning: str, reference: str) -> str:
    return json.dumps(
        {"subgoal": reasoning.strip()[:80], "score": subgoal_score(reasoning, reference)}, ensure_ascii=False
    )
