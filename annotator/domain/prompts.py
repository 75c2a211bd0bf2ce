"""The mobile-agent prompt of Mobile-R1 Appendix B.2/B.4 (the same text for collection and training)."""

from __future__ import annotations

from functools import cache

from annotator.resources import read_text

AGENT_PROMPT = "prompts/mobile_agent.txt"


@cache
def _agent_template() -> str:
    return read_text(AGENT_PROMPT)  # an export asks for it once per sample


def agent_system_prompt(instruction: str) -> str:
    """The system prompt with the user task filled in (the template holds JSON braces, so no str.format)."""
    if not instruction.strip():
        raise ValueError("instruction: empty; the agent needs a task")
    return _agent_template().replace("{instruction}", instruction.strip()).rstrip()
