"""The judge's reply is read as the rubric asks for it: one JSON object, a whole-number reward from 0 to 4."""

from __future__ import annotations

import pytest

from annotator.judge.reply import JudgeReplyError, JudgeVerdict, parse_judge_reply


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ('{"reason": "完成了", "reward": 4}', JudgeVerdict(4, "完成了")),
        ('```json\n{"reason": "部分完成", "reward": 2}\n```', JudgeVerdict(2, "部分完成")),
        ('```\n{\n  "reason": " 没有完成 ",\n  "reward": 0\n}\n```\n', JudgeVerdict(0, "没有完成")),
        ('{"reward": 3}', JudgeVerdict(3, "")),
        ('{"reason": "嵌套 {也行}", "reward": 1, "details": {"steps": [1, 2]}}', JudgeVerdict(1, "嵌套 {也行}")),
    ],
)
def test_the_rubrics_format_is_read(reply: str, verdict: JudgeVerdict) -> None:
    assert parse_judge_reply(reply) == verdict


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ('{"reason": "好", "reward": 4} On reflection: {"reason": "没完成", "reward": 0}', "several JSON objects"),
        ('{"reward": 2}\n{"reward": 2}', "several JSON objects"),  # equal rewards too: which reason is the verdict's?
        ('```json\n{"reward": 4}\n```\n```json\n{"reward": 1}\n```', "several JSON objects"),
        ('评估如下：{"reason": "没有完成", "reward": 0} 以上。', "text around its JSON object"),
        ('{"reason": "好", "reward": 4}\nActually I would give it a 2.', "text around its JSON object"),
        ('{"reason": "好", "reward": 4, "reward": 0}', "'reward' more than once"),
        ('{"reason": "还行", "reward": "3"}', 'reward is "3", not a whole number'),
        ('{"reason": "还行", "reward": 3.0}', "not a whole number"),
        ('{"reason": "还行", "reward": 2.5}', "not a whole level"),
        ('{"reason": "还行", "reward": true}', "reward is true"),
        ('{"reason": "还行", "reward": null}', "reward is null"),
        ('{"reason": "很好", "reward": 7}', "outside the 0-4 scale"),
        ('{"reason": "很好", "reward": -1}', "outside the 0-4 scale"),
        ('{"reason": ["好"], "reward": 4}', "not text"),
        ('{"reason": "没有分数"}', "has no 'reward'"),
        ("[4]", "not an object"),
        ("这个轨迹很好，我给 4 分。", "no JSON object"),
        ("I'm sorry, I can't help with evaluating this.", "refused"),
        ("  \n", "empty"),
        ('{"reward": 4, "reason": "' + "好" * 70_000 + '"}', "70,027 characters long"),
        ("{" * 50_000, "no JSON object"),  # all braces: a few tried, not every one
    ],
)
def test_anything_else_is_unparseable_with_the_reason(reply: str, problem: str) -> None:
    with pytest.raises(JudgeReplyError) as raised:
        parse_judge_reply(reply)
    assert problem in str(raised.value)
