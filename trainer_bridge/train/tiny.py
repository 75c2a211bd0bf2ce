"""Qwen2.5-VL checkpoint folders with random weights built offline. The tiny one is the `tiny-*` recipes' model when
none is given, and the tests' model for every code path that loads weights (no model hub is needed,
`HF_HUB_OFFLINE=1` holds); the `small` and `3b` sizes are bench/train.py's (`SIZES` says why each exists).

A byte-level BPE trained with `tokenizers` on the texts the model will first train on (a recipe builds the tiny
model from its export's prompts and answers; without texts, the project's system prompts), with Qwen's special
tokens and the response tags as ordinary tokens; `Qwen2VLImageProcessor` with small pixel limits (a training run
sets the export's own); the Qwen chat template; a `Qwen2_5_VLConfig` of the size asked for. Untrained, its answers
are noise; the tiny one learns what it is shown (docs/adr/0009).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# Qwen2.5's special tokens. The response format's tags are ordinary tokens, as in Qwen's own tokenizer (where
# `<tool_call>` and `</tool_call>` are added tokens that are *not* special): a decode that skips special tokens, as
# TRL's trainers and the evaluation do, keeps every tag of the answer.
SPECIAL_TOKENS = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
]
ADDED_TOKENS = ["<tool_call>", "</tool_call>"]
CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
# Without texts of its own a tokenizer learns from these: the project's system prompts and a few answers.
DEFAULT_CORPUS = [
    "<think>当前在首页，需要点击搜索框</think><action>点击搜索框</action>",
    '<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [120, 340]}}</tool_call>',
    "You are a helpful assistant. User Task: 打开优选商城，搜索纸巾并加入购物车",
    "Step 1 (current screen): swipe type system_button Back Home terminate success failure",
]
DEFAULT_VOCABULARY = 600


def _default_corpus() -> list[str]:
    from annotator.domain.prompts import PROMPT_VARIANTS, agent_system_prompt, prompt_variant

    prompts = [agent_system_prompt("打开优选商城", prompt_variant(name)) for name in PROMPT_VARIANTS]
    return (DEFAULT_CORPUS + prompts) * 20


def _tokenizer(corpus: list[str] | None = None, vocabulary: int = DEFAULT_VOCABULARY) -> Any:
    """A byte-level BPE (any text encodes) trained on `corpus`, with Qwen's special tokens and chat template."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE(unk_token=None))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocabulary, special_tokens=SPECIAL_TOKENS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    core.train_from_iterator(corpus or _default_corpus(), trainer)
    core.add_tokens([AddedToken(tag, special=False, normalized=False) for tag in ADDED_TOKENS])
    return PreTrainedTokenizerFast(
        tokenizer_object=core,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=SPECIAL_TOKENS[1:],
        chat_template=CHAT_TEMPLATE,
    )


# Each size's tokenizer, text and vision settings; the processor and special tokens are the same for all.
# `tiny`: the tests' and tiny recipes' model, sized to learn on a laptop (docs/adr/0009): trained on a compact
# export's texts (its tokenizer too) it memorises the demo's 28 labelled steps in a few minutes on 2 CPU cores; 4 text
# layers of width 128 (about 0.9 M parameters with its ~1,000-token vocabulary), one small vision block. `3b`:
# Qwen2.5-VL-3B-Instruct's published architecture, from its config.json (Qwen/Qwen2.5-VL-3B-Instruct on the Hugging
# Face hub; read through copies of it at huggingface.co/dahwinsingularity/vllm2 (text side, rope_scaling) and
# huggingface.co/vbdai/CPPO-3B (a fine-tune whose config spells out every vision key)), for bench/train.py's GPU
# figures: the compute and memory of the real model, with random weights. `small`: the 3B's shape scaled down (its
# head sizes 64 and 80 and MLP ratios kept, one windowed and one full-attention vision block) to run the same code
# path on a shared 2-core CPU, where an export's sample is ~4,700 tokens with the default tokenizer (a 4-layer,
# 256-wide model took ~26 s a sample there); its vocabulary is larger than the tokenizer's as the 3B's is (the model
# samples ids the tokenizer has no token for, which decoding skips), not 151,936 wide.
SIZES: dict[str, dict[str, dict[str, Any]]] = {
    "tiny": {
        "tokenizer": {"vocabulary": 4096},
        "text": {"hidden_size": 128, "intermediate_size": 256, "num_hidden_layers": 4, "num_attention_heads": 4,
                 "num_key_value_heads": 1, "max_position_embeddings": 8192,
                 "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [4, 6, 6]}},
        "vision": {"depth": 1, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2, "out_hidden_size": 128,
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


def vocabulary(size: str) -> int:
    """The largest vocabulary the size's tokenizer may learn (its corpus may fill less)."""
    return int(SIZES[size].get("tokenizer", {}).get("vocabulary", DEFAULT_VOCABULARY))


def build_tiny_qwen(folder: Path, corpus: list[str] | None = None) -> Path:
    """Write a loadable tiny Qwen2.5-VL model and its processor into `folder`; returns `folder`."""
    return build_qwen(folder, "tiny", corpus=corpus)


def build_qwen(
    folder: Path, size: str, device: str = "cpu", dtype: Any = None, corpus: list[str] | None = None
) -> Path:
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
    tokenizer = _tokenizer(corpus, vocabulary(size))
    ids = {token: tokenizer.convert_tokens_to_ids(token) for token in SPECIAL_TOKENS}
    images = Qwen2VLImageProcessor(size={"shortest_edge": 28 * 28 * 4, "longest_edge": 28 * 28 * 16})
    processor = Qwen2_5_VLProcessor(images, tokenizer, Qwen2VLVideoProcessor(), chat_template=CHAT_TEMPLATE)
    processor.save_pretrained(folder)
    text = {"vocab_size": len(tokenizer)} | SIZES[size]["text"]
    config = Qwen2_5_VLConfig(
        text_config=text
        | {
            "eos_token_id": ids["<|im_end|>"],
            "pad_token_id": ids["<|endoftext|>"],
            "bos_token_id": ids["<|endoftext|>"],
        },
        vision_config=SIZES[size]["vision"],
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
    )
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
