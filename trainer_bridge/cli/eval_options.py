"""How `trainer-bridge eval` is told what it evaluates: the policy (an endpoint or a model folder) and how to ask
it (the model space, prompt variant and history window it was trained with, read from the training export's
manifest with --export, or given one by one; an option given beside --export wins)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import click

from annotator.domain.coords import MAX_PIXELS, MIN_PIXELS
from annotator.domain.export_manifest import ExportManifest, ManifestError, read_export_manifest
from annotator.domain.model_space import DEFAULT_IMAGE_SCALE, MODEL_SPACE_NAMES, ModelSpace, model_space
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PROMPT_VARIANTS, prompt_variant
from annotator.llm.client import LLMConfig
from trainer_bridge.evaluate.offline import LEVELS, EvalSettings
from trainer_bridge.evaluate.policy import EndpointPolicy, Policy
from trainer_bridge.export.sft import levels_written

F = TypeVar("F", bound=Callable[..., Any])
# The settings an evaluation must share with the training data: options named as ExportManifest's fields.
FROM_MANIFEST = ("coords", "min_pixels", "max_pixels", "image_scale", "history_images", "prompt_variant")


MAX_NEW_TOKENS = 512  # trainer_bridge.evaluate.local_policy's (not imported: it loads torch)


def policy_options(command: F) -> F:
    options = [
        click.option("--base-url", help="The policy's OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1."),
        click.option("--model", help="The model's name at that endpoint."),
        click.option(
            "--model-path",
            type=click.Path(file_okay=False, path_type=Path),
            help="A local transformers model folder (a checkpoint) instead of an endpoint.",
        ),
        click.option(
            "--max-new-tokens",
            type=click.IntRange(1),
            default=MAX_NEW_TOKENS,
            show_default=True,
            help="--model-path: the longest answer generated (a model that never ends one stops here).",
        ),
        click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True, help="Env var holding the key."),
        click.option(
            "--timeout", type=click.FloatRange(min=1), default=120, show_default=True, help="Seconds per try."
        ),
        click.option(
            "--retries",
            type=click.IntRange(0, 10),
            default=3,
            show_default=True,
            help="Tries again after 429, 5xx and timeouts.",
        ),
        click.option(
            "--export",
            "export_dir",
            type=click.Path(file_okay=False, exists=True, path_type=Path),
            help="The training export: its manifest gives the coordinate space, image size, history "
            "window and prompt variant, and its train split's apps are the 'seen' ones.",
        ),
        click.option("--coords", type=click.Choice(MODEL_SPACE_NAMES), default="qwen2.5-vl", show_default=True),
        click.option("--min-pixels", type=int, default=MIN_PIXELS, show_default=True),
        click.option("--max-pixels", type=int, default=MAX_PIXELS, show_default=True),
        click.option(
            "--image-scale",
            type=float,
            default=DEFAULT_IMAGE_SCALE,
            show_default=True,
            help="As the export's: 0.5 halves the screenshots (Mobile-R1 Appendix E).",
        ),
        click.option("--history-images", type=click.IntRange(1), default=2, show_default=True),
        click.option(
            "--prompt-variant",
            type=click.Choice(PROMPT_VARIANTS),
            default=str(DEFAULT_PROMPT_VARIANT),
            show_default=True,
        ),
        click.option(
            "--decomposed",
            is_flag=True,
            help="Refine each predicted point by decomposed grounding (UI-AGILE 3.4: 4 overlapping tiles "
            "of 60%, a candidate on each, a yes/no relevance question per candidate).",
        ),
        click.option(
            "--selector-model",
            help="--decomposed: the model that answers the relevance questions "
            "(default: the policy's own; at the same endpoint).",
        ),
        click.option(
            "--seen-app",
            "seen_apps",
            multiple=True,
            help="An app the model was trained on (repeat; --export gives them): figures per seen / unseen split.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def sampling_options(command: F) -> F:
    options = [
        click.option(
            "--temperature",
            type=click.FloatRange(0, 2),
            default=0.0,
            show_default=True,
            help="0 is greedy; Mobile-R1 measures pass@k at 0.7.",
        ),
        click.option(
            "--samples",
            type=click.IntRange(1, 64),
            default=1,
            show_default=True,
            help="Answers per step: pass@1 .. pass@N at --temperature (above 0); the headline figures "
            "come from one more, greedy answer.",
        ),
        click.option(
            "--level",
            "levels",
            type=click.Choice(LEVELS),
            multiple=True,
            help="Ask with the task instruction or the step's action text (default: as --export's rows "
            "were written, else the task); repeat for both.",
        ),
        click.option(
            "--privacy",
            type=click.Choice(("blur", "black", "none")),
            default="blur",
            show_default=True,
            help="How privacy regions are hidden in what the policy is sent.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def read_manifest(export_dir: Path) -> ExportManifest:
    try:
        return read_export_manifest(export_dir)
    except ManifestError as error:
        raise click.UsageError(str(error)) from None


def with_manifest(context: click.Context, given: dict[str, Any]) -> dict[str, Any]:
    """The options with the manifest's values wherever the user left an option at its default."""
    if given.get("export_dir") is None:
        return given
    manifest = read_manifest(given["export_dir"])
    chosen = dict(given)
    for name in FROM_MANIFEST:
        value = getattr(manifest, name)  # None: an old manifest does not say; the option's default stays
        if value is not None and context.get_parameter_source(name) in (None, click.core.ParameterSource.DEFAULT):
            chosen[name] = value
    if not given["levels"] and manifest.instruction_level in ("action", "both"):
        # asked as the model was trained (UI-R1's and Mobile-R1's presets; GUI-R1's asks both)
        chosen["levels"] = levels_written(manifest.instruction_level)
    if not given["seen_apps"]:
        chosen["seen_apps"] = manifest.apps("train")
    return chosen


def given_space(given: dict[str, Any]) -> ModelSpace:
    """The model space of --coords, --min-pixels, --max-pixels and --image-scale (ValueError when impossible)."""
    return model_space(
        given["coords"],
        min_pixels=given["min_pixels"],
        max_pixels=given["max_pixels"],
        image_scale=given["image_scale"],
    )


def eval_settings(given: dict[str, Any]) -> EvalSettings:
    try:
        space = given_space(given)
        return EvalSettings(
            space,
            prompt_variant(given["prompt_variant"]),
            given["history_images"],
            given["temperature"],
            given["samples"],
            tuple(dict.fromkeys(given["levels"])) or ("task",),
            given["privacy"],
            greedy_first=True,
        )
    except ValueError as error:
        raise click.UsageError(str(error)) from None


def endpoint_config(given: dict[str, Any]) -> LLMConfig:
    if not given["base_url"] or not given["model"]:
        raise click.UsageError("give the policy: --base-url URL --model NAME, or --model-path FOLDER")
    return LLMConfig(
        given["base_url"],
        given["model"],
        given["api_key_env"],
        timeout_s=given["timeout"],
        max_retries=given["retries"],
        max_tokens=1024,
    )


def make_policy(given: dict[str, Any], settings: EvalSettings) -> Policy:
    """The endpoint, or the local model folder (loaded now: seconds to minutes); with --decomposed, wrapped in
    decomposed grounding (its tiles asked at the endpoint, or at --base-url for a local model)."""
    policy = _plain_policy(given)
    if not given["decomposed"]:
        return policy
    from trainer_bridge.evaluate.decomposed import DecomposedGroundingPolicy

    grounding = endpoint_config(given)
    if given["model_path"] is not None and given["model"] is None:
        raise click.UsageError("--decomposed with --model-path: give --base-url and --model of the grounding model")
    selector = replace(grounding, model=given["selector_model"]) if given["selector_model"] else None
    return DecomposedGroundingPolicy(policy, grounding, space=settings.space, selector=selector)


def _plain_policy(given: dict[str, Any]) -> Policy:
    if given["model_path"] is not None:
        if given["base_url"] and not given["decomposed"]:
            raise click.UsageError("give either --base-url/--model or --model-path, not both")
        from trainer_bridge.evaluate.local_policy import LocalModelError, LocalPolicy

        try:
            return LocalPolicy(given["model_path"], max_new_tokens=given["max_new_tokens"])
        except LocalModelError as error:
            raise click.ClickException(str(error)) from None
    return EndpointPolicy(endpoint_config(given))
