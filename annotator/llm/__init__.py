"""OpenAI-compatible model calls: the client, the collecting agent's request and instruction generation.

Sits beside ``annotator.device`` (neither imports the other) and above storage and the domain.
"""

from annotator.llm.agent import (
    AgentDecision,
    AgentRequest,
    HistoryStep,
    build_agent_messages,
    parse_agent_reply,
    resized_screen,
)
from annotator.llm.client import (
    Completion,
    LLMBadReply,
    LLMClient,
    LLMConfig,
    LLMError,
    LLMRejected,
    LLMUnavailable,
    resolve_api_key,
)
from annotator.llm.generate import generate_instructions, instruction_prompt, parse_task_list

__all__ = [
    "AgentDecision",
    "AgentRequest",
    "Completion",
    "HistoryStep",
    "LLMBadReply",
    "LLMClient",
    "LLMConfig",
    "LLMError",
    "LLMRejected",
    "LLMUnavailable",
    "build_agent_messages",
    "generate_instructions",
    "instruction_prompt",
    "parse_agent_reply",
    "parse_task_list",
    "resized_screen",
    "resolve_api_key",
]
