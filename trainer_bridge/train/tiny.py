"""Qwen2.5-VL checkpoint folders with random weights built offline. The tiny one is the `tiny-*` recipes' model when
none is given, and the tests' model for every code path that loads weights (no model hub is needed,
`HF_HUB_OFFLINE=1` holds); the `small` and `3b` sizes are bench/train.py's (`SIZES` says why each exists).

A byte-level BPE trained with `tokenizers` on a few lines of the project's own prompts, with Qwen's special
tokens; `Qwen2VLImageProcessor` with small pixel limits (a few dozen patches a screenshot; a training run sets the
export's own); the Qwen chat template; a `Qwen2_5_VLConfig` of the size asked for. Its answers are noise, which is
what a model that was never trained answers: the code around it is what runs on it. The tiny one has two text
layers of hidden size 32 and one vision block whose `out_hidden_size` is the text's hidden size: a GRPO step takes
about a second on a CPU.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


# Each size's text and vision settings; the tokenizer, processor and special tokens are the same for all.
# `tiny`: the tests' and tiny recipes' model (a GRPO step in about a second on a CPU; its vocabulary is the
# tokenizer's). `3b`: Qwen2.5-VL-3B-Instruct's published architecture, from its config.json (Qwen/Qwen2.5-VL-3B-
# Instruct on the Hugging Face hub; read through copies of it at huggingface.co/dahwinsingularity/vllm2 (text side,
# rope_scaling) and huggingface.co/vbdai/CPPO-3B (a fine-tune whose config spells out every vision key)), for
# bench/train.py's GPU figures: the compute and memory of the real model, with random weights. `small`: the 3B's
# shape scaled down (its head sizes 64 and 80 and MLP ratios kept, one windowed and one full-attention vision block)
# to run the same code path on a shared 2-core CPU, where an export's sample is ~4,700 tokens with this tokenizer
# (a 4-layer, 256-wide model took ~26 s a sample there); its vocabulary is larger than the tokenizer's as the 3B's
# is (the model samples ids the tokenizer has no token for, which decoding skips), not 151,936 wide.
SIZES: dict[str, dict[str, dict[str, Any]]] = {
    "tiny": {
        "text": {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2,
                 "num_key_value_heads": 1, "max_position_embeddings": 4096,
                 "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0, "mrope_section": [2, 3, 3]}},
        "vision": {"depth": 1, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2, "out_hidden_size": 32,
                   "fullatt_block_indexes": [0]},
    },
    "small": {
        "text": {"vocab_size": 2048, "hidden_size": 128, "intermediate_size": 688, "num_hidden_layers": 2,
                 "num_attention_heads": 2, "num_key_value_heads": 1, "max_position_embeddings": 128000,
                 "rms_norm_eps": 1e-06, "tie_word_embeddings": True,
                 "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0, "mrope_section": [8, 12, 12]}},
        "vision": {"depth": 2, "hidden_size": 80, "intermediate_size": 216, "num_heads": 1, "out_hidden_size": 128,
                   "fullatt_block_indexes": [1], "window_size": 112, "tokens_per_second": 2},
    },
    "3b": {
        "text": {"vocab_size": 151936, "hidden_size": 2048, "intermediate_size": 11008, "num_hidden_layers": 36,
                 "num_attention_heads": 16, "num_key_value_heads": 2, "max_position_embeddings": 128000,
                 "rms_norm_eps": 1e-06, "tie_word_embeddings": True, "hidden_act": "silu",
                 "use_sliding_window": False, "sliding_window": 32768, "max_window_layers": 70,
                 "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0, "mrope_section": [16, 24, 24]}},
        "vision": {"depth": 32, "hidden_size": 1280, "intermediate_size": 3420, "num_heads": 16,
                   "out_hidden_size": 2048, "fullatt_block_indexes": [7, 15, 23, 31], "window_size": 112,
                   "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2, "tokens_per_second": 2,
                   "hidden_act": "silu", "in_channels": 3},
    },
}  # fmt: skip


def build_tiny_qwen(folder: Path) -> Path:
    """Write a loadable tiny Qwen2.5-VL model and its processor into `folder`; returns `folder`."""
    return build_qwen(folder, "tiny")


def build_qwen(folder: Path, size: str, device: str = "cpu", dtype: Any = None) -> Path:
    """Write a Qwen2.5-VL of `size` (SIZES) with random weights and the offline processor into `folder`.

    The weights are made on `device` in `dtype` (the 3B on the GPU in bf16: 7.5 GB, where fp32 on the CPU would
    take twice that and minutes of CPU initialisation) and saved in that dtype, which `from_pretrained` keeps."""
    import torch
    from transformers import (
        Qwen2_5_VLConfig,
        Qwen2_5_VLForConditionalGeneration,
        Qwen2_5_VLProcessor,
        Qwen2VLImageProcessor,
        Qwen2VLVideoProcessor,
    )

    if size not in SIZES:
        raise ValueError(f"no model size {size!r}; known: {', '.join(SIZES)}")
    tokenizer = _tokenizer()
    ids = {token: tokenizer.convert_tokens_to_ids(token) for token in SPECIAL_TOKENS}
    images = Qwen2VLImageProcessor(size={"shortest_edge": 28 * 28 * 4, "longest_edge": 28 * 28 * 16})
    processor = Qwen2_5_VLProcessor(images, tokenizer, Qwen2VLVideoProcessor(), chat_template=CHAT_TEMPLATE)
    processor.save_pretrained(folder)
    text = {"vocab_size": len(tokenizer)} | SIZES[size]["text"]
    config = Qwen2_5_VLConfig(
        text_config=text | {
            "eos_token_id": ids["<|im_end|>"], "pad_token_id": ids["<|endoftext|>"],
            "bos_token_id": ids["<|endoftext|>"],
        },
        vision_config=SIZES[size]["vision"],
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
    )  # fmt: skip
    torch.manual_seed(0)
    made_as = torch.get_default_dtype()
    try:
        torch.set_default_dtype(dtype or torch.float32)
        with torch.device(device):
            model = Qwen2_5_VLForConditionalGeneration(config)
    finally:
        torch.set_default_dtype(made_as)
    model.generation_config.eos_token_id = ids["<|im_end|>"]
    model.generation_config.pad_token_id = ids["<|endoftext|>"]
    model.save_pretrained(folder)
    return folder
