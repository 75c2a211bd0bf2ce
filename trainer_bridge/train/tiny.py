"""A tiny Qwen2.5-VL checkpoint folder built offline: the `tiny-*` recipes' model when none is given, and the tests'
model for every code path that loads weights (no model hub is needed, `HF_HUB_OFFLINE=1` holds).

A byte-level BPE trained with `tokenizers` on a few lines of the project's own prompts, with Qwen's special
tokens; `Qwen2VLImageProcessor` with small pixel limits (a few dozen patches a screenshot); the Qwen chat
template; a `Qwen2_5_VLConfig` with two tiny text layers and one vision block. Its answers are noise, which is
what a model that was never trained answers: the code around it is what runs on it. Two text layers of hidden
size 32 and one vision block whose `out_hidden_size` is the text's hidden size: a GRPO step takes about a second on
a CPU.
"""

from __future__ import annotations

from pathlib import Path

SPECIAL_TOKENS = [
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>", "<|image_pad|>",
    "<|video_pad|>", "<tool_call>", "</tool_call>",
]  # fmt: skip
CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
CORPUS = [
    "<think>当前在首页，需要点击搜索框</think><action>点击搜索框</action>",
    '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [120, 340]}}',
    "You are a helpful assistant. User Task: 打开优选商城，搜索纸巾并加入购物车",
    "Step 1 (current screen): swipe type system_button Back Home terminate success failure",
] * 20


def _tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE(unk_token=None))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=600, special_tokens=SPECIAL_TOKENS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    core.train_from_iterator(CORPUS, trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=core, eos_token="<|im_end|>", pad_token="<|endoftext|>",
        additional_special_tokens=SPECIAL_TOKENS[1:7], chat_template=CHAT_TEMPLATE,
    )  # fmt: skip


def build_tiny_qwen(folder: Path) -> Path:
    """Write a loadable tiny Qwen2.5-VL model and its processor into `folder`; returns `folder`."""
    import torch
    from transformers import (
        Qwen2_5_VLConfig,
        Qwen2_5_VLForConditionalGeneration,
        Qwen2_5_VLProcessor,
        Qwen2VLImageProcessor,
        Qwen2VLVideoProcessor,
    )

    tokenizer = _tokenizer()
    ids = {token: tokenizer.convert_tokens_to_ids(token) for token in SPECIAL_TOKENS}
    images = Qwen2VLImageProcessor(size={"shortest_edge": 28 * 28 * 4, "longest_edge": 28 * 28 * 16})
    processor = Qwen2_5_VLProcessor(images, tokenizer, Qwen2VLVideoProcessor(), chat_template=CHAT_TEMPLATE)
    processor.save_pretrained(folder)
    config = Qwen2_5_VLConfig(
        text_config={
            "vocab_size": len(tokenizer), "hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 2, "num_key_value_heads": 1, "max_position_embeddings": 4096,
            "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0, "mrope_section": [2, 3, 3]},
            "eos_token_id": ids["<|im_end|>"], "pad_token_id": ids["<|endoftext|>"],
            "bos_token_id": ids["<|endoftext|>"],
        },
        vision_config={
            "depth": 1, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2, "out_hidden_size": 32,
            "fullatt_block_indexes": [0],
        },
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
    )  # fmt: skip
    torch.manual_seed(0)
    model = Qwen2_5_VLForConditionalGeneration(config)
    model.generation_config.eos_token_id = ids["<|im_end|>"]
    model.generation_config.pad_token_id = ids["<|endoftext|>"]
    model.save_pretrained(folder)
    return folder
