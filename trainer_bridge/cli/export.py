"""`trainer-bridge export`: training datasets from a workspace."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from annotator.domain.agent_conversation import PAPER_ACTIONS
from annotator.domain.coords import MAX_PIXELS, MIN_PIXELS
from annotator.domain.model_space import DEFAULT_IMAGE_SCALE, MODEL_SPACE_NAMES, model_space
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PROMPT_VARIANTS, PromptVariant, prompt_variant
from annotator.imaging.kept_copies import CACHE_FOLDER
from annotator.storage.studies import PERSON_ENV, hidden_judging, person_asking
from annotator.storage.workspace import Workspace
from trainer_bridge.cli.options import (
    WHOLE_DATASET_SPLIT,
    opened_workspace,
    selection,
    selection_options,
    split_options,
    split_plan,
    workspace_options,
)
from trainer_bridge.export.formats import FORMATS
from trainer_bridge.export.manifest import Tally
from trainer_bridge.export.presets import PRESETS, describe
from trainer_bridge.export.run import PRIVACY_MODES, STAGES, ExportError, ExportOptions, export
from trainer_bridge.export.sft import INSTRUCTION_LEVELS, levels_written
from trainer_bridge.select.filters import KEEP, SelectionError
from trainer_bridge.select.keep import steps_to_keep


@click.command("export")
@click.option("--stage", type=click.Choice(STAGES), required=True, help="Which training stage the data is for.")
@click.option("--format", "format_", type=click.Choice(FORMATS), required=True, help="The consumer's layout.")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="A new (or empty) folder.")
@click.option("--coords", type=click.Choice(MODEL_SPACE_NAMES), default="qwen2.5-vl", show_default=True)
@click.option("--min-pixels", type=int, default=MIN_PIXELS, show_default=True, help="The processor's min_pixels.")
@click.option("--max-pixels", type=int, default=MAX_PIXELS, show_default=True, help="The processor's max_pixels.")
@click.option(
    "--preset",
    type=click.Choice(tuple(PRESETS)),
    help="A paper's settings; options given beside it win. mobile-r1: "
    + describe("mobile-r1")
    + " tiny (what the tiny model learns from on a CPU): "
    + describe("tiny"),
)
@click.option(
    "--image-scale",
    type=float,
    default=DEFAULT_IMAGE_SCALE,
    show_default=True,
    help="Scale the screenshots first: 0.5 halves them, as Mobile-R1 (Appendix E); 1 keeps the phone's size.",
)
@click.option(
    "--history-images",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Screenshots per sample, the current one included (Mobile-R1 Eq. 4's W counts only the earlier ones: W + 1).",
)
@click.option(
    "--instruction-level",
    type=click.Choice(INSTRUCTION_LEVELS),
    default="task",
    show_default=True,
    help="What each row asks: the task, the step's own action text (low-level, with the history), or "
    "both: every step twice (GUI-R1's high- and low-level data).",
)
@click.option("--self-correction", is_flag=True, help="Also the steps after a wrong step (history shows the mistake).")
@click.option("--keep-duplicates", is_flag=True, help="Keep samples identical to one already written.")
@click.option(
    "--error-recovery",
    is_flag=True,
    help="grpo-action: add InfiGUI-R1's error-escape and back-on-track rows (not in Mobile-R1).",
)
@click.option(
    "--checked-boxes",
    is_flag=True,
    help="Leave out click and long-press rows whose target box no person drew or accepted (UI-R1 3.3 "
    "Quality: clean element annotations only).",
)
@click.option(
    "--prompt-variant",
    type=click.Choice(PROMPT_VARIANTS),
    default=str(DEFAULT_PROMPT_VARIANT),
    show_default=True,
    help="The system prompt: qwen2.5-vl declares mobile_use's parameters; mobile-r1-paper is B.4 as "
    "printed. Evaluate with the one you train on (manifest.json: prompt_variant).",
)
@click.option(
    "--privacy",
    type=click.Choice(PRIVACY_MODES),
    default="blur",
    show_default=True,
    help="How the privacy regions annotators marked are hidden.",
)
@click.option("--keep-pii", is_flag=True, help="Do not scrub phone, ID-card, bank-card numbers and e-mails.")
@click.option(
    "--image-storage",
    type=click.Choice(("files", "embedded")),
    help="easyr1 only: screenshots as files under images/ that rows name (the default; EasyR1's "
    "data.image_dir is the output folder), or their bytes in every row that shows them.",
)
@click.option(
    "--no-image-cache",
    is_flag=True,
    help=f"Do not keep resized screenshots in <data folder>/{CACHE_FOLDER} for the next export.",
)
@split_options(default=WHOLE_DATASET_SPLIT)
@selection_options(reviews=("accepted",), review_help="Review states (repeat).")
@click.option(
    "--select",
    "select_run",
    type=int,
    metavar="RUN",
    help="A `trainer-bridge select` run: export only the steps --keep keeps of it.",
)
@click.option(
    "--keep",
    type=click.Choice(tuple(KEEP)),
    help="With --select: hard (UI-R1, p = 0), band (GUI-R1, 0 < p < 1), bottleneck (InfiGUI-R1: p = 0 "
    "with the task, p > 0 with the step's action) or prone (InfiGUI-R1: 0 < p < 1, hot); p at the "
    "level each row is asked at.",
)
@click.option(
    "--balance-levels",
    is_flag=True,
    help="With --select and --instruction-level both: sample the action-level rows down to the task "
    "level's count, seeded by --seed (GUI-R1 3.3).",
)
@click.option(
    "--as",
    "person",
    metavar="NAME",
    help=f"Who exports (default: ${PERSON_ENV}, else your login name when the workspace knows it): a "
    "study's raters get no judge scores of its trajectories while it is being rated.",
)
@workspace_options
@click.pass_context
def export_command(context: click.Context, **given: Any) -> None:
    """Write a training dataset of labelled steps (manifest.json says what is in it)."""
    given = with_preset(context, given)
    options = export_options(given)
    bar = click.progressbar(length=1, label="trajectories", file=sys.stderr)
    with opened_workspace(given, writes=False) as workspace, bar:  # an export writes only into --out (and a cache)
        options = replace(options, withheld=withheld_judging(workspace, given["person"]))
        options = replace(options, **selected_steps(workspace, given, levels_written(options.instruction_level)))

        def progress(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        try:
            tally = export(workspace, options, progress)
        except ExportError as error:
            raise click.ClickException(str(error)) from None
    counts = tally.as_json()
    for split, numbers in counts.items():
        click.echo(f"{split}: {numbers['samples']} samples from {numbers['trajectories']} trajectories")
    if not any(numbers["samples"] for numbers in counts.values()):
        click.echo("No labelled steps in the selected trajectories (see --review and the filters).")
    if tally.pii.total:
        found = ", ".join(f"{count} {kind}" for kind, count in tally.pii.as_dict().items() if count)
        click.echo(f"Personal data scrubbed from the texts: {found}")
    for line in left_out_lines(tally) + paper_action_lines(tally):
        click.echo(line)
    if tally.duplicates:
        click.echo(f"{tally.duplicates} samples identical to one already written were left out")
    if tally.images_made or tally.images_reused:
        click.echo(
            f"Screenshots resized or masked: {tally.images_made}; "
            f"{tally.images_reused} read from the copies kept before"
        )
    click.echo(f"Wrote {given['out']} (manifest.json lists every file and count)")
    if options.format == "easyr1" and options.storage == "files":
        click.echo(f"EasyR1 finds the screenshots with data.image_dir={Path(given['out']).resolve()}")


def left_out_lines(tally: Tally) -> list[str]:
    """What the prompt variant or --checked-boxes left out, by action."""
    lines = []
    for counts, why in (
        (tally.unsayable, "the prompt variant's paper has no such action"),
        (tally.unchecked_boxes, "--checked-boxes: no person checked their target box"),
    ):
        if counts:
            found = ", ".join(f"{count} {action}" for action, count in sorted(counts.items()))
            lines.append(f"Left out ({why}): {found}")
    return lines


def paper_action_lines(tally: Tally) -> list[str]:
    """A paper variant's rows by its own action names (UI-R1's Table 5); for UI-R1, whose selection asks for
    diversity, the names no row has."""
    if tally.variant not in PAPER_ACTIONS:
        return []
    lines = []
    for split in tally.splits:
        counts = tally.paper_action_types(split)
        lines.append(f"{split} by {tally.variant}'s actions: " + ", ".join(f"{n} {name}" for name, n in counts.items()))
        missing = [name for name, count in counts.items() if not count]
        if missing and tally.samples[split] and tally.variant is PromptVariant.UI_R1:
            lines.append(f"  no {split} rows of: {', '.join(missing)} (UI-R1 3.3 Diversity covers every action type)")
    return lines


def withheld_judging(workspace: Workspace, person: str | None) -> frozenset[int]:
    """The trajectories whose judge scores the person exporting must not get (an open study they rate)."""
    try:
        hidden = hidden_judging(workspace.database, person_asking(workspace.database, person))
    except LookupError as error:
        raise click.UsageError(str(error)) from None
    if hidden:
        click.echo(
            f"Judge scores withheld from {len(hidden.trajectory_ids)} trajectories: {hidden.why()}; a "
            "selection by score leaves them out, whatever their scores.",
            err=True,
        )
    return hidden.trajectory_ids


def selected_steps(workspace: Workspace, given: dict[str, Any], levels: tuple[str, ...]) -> dict[str, Any]:
    """ExportOptions' keep_steps and kept_by for --select RUN --keep RULE (nothing without them), at `levels`."""
    run, keep = given["select_run"], given["keep"]
    if run is None and keep is None:
        return {}
    if run is None or keep is None:
        raise click.UsageError("--select RUN and --keep RULE go together: a selection run and which of its steps")
    seed = given["seed"] if given["balance_levels"] else None
    try:
        kept = steps_to_keep(workspace.database, run, keep, levels, seed)
    except (LookupError, SelectionError) as error:
        raise click.UsageError(str(error)) from None
    if not kept.complete:
        click.echo(
            f"Selection {run} is {kept.provenance['status']}: its steps without answers are not kept (run "
            "the same `trainer-bridge select` again to finish it).",
            err=True,
        )
    for level, count in kept.counts().items():
        click.echo(f"--keep {keep} keeps {count} steps of selection {run} at the {level} level", err=True)
    if "balanced" in kept.provenance:
        before = kept.provenance["balanced"]["action_level_before"]
        click.echo(f"Balanced (GUI-R1): {kept.counts()['action']} of the {before} action-level steps sampled", err=True)
    return {"keep_steps": kept.steps, "kept_by": kept.provenance}


def export_options(given: dict[str, Any]) -> ExportOptions:
    try:
        space = model_space(
            given["coords"],
            min_pixels=given["min_pixels"],
            max_pixels=given["max_pixels"],
            image_scale=given["image_scale"],
        )
        selected, splits = selection(given), split_plan(given)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    return ExportOptions(
        stage=given["stage"],
        format=given["format_"],
        out=given["out"],
        space=space,
        history_images=given["history_images"],
        after_errors=given["self_correction"],
        instruction_level=given["instruction_level"],
        keep_duplicates=given["keep_duplicates"],
        keep_pii=given["keep_pii"],
        privacy=given["privacy"],
        error_recovery=given["error_recovery"],
        prompt_variant=prompt_variant(given["prompt_variant"]),
        image_cache=not given["no_image_cache"],
        checked_boxes=given["checked_boxes"],
        selection=selected,
        splits=splits,
        image_storage=given["image_storage"],
    )


def with_preset(context: click.Context, given: dict[str, Any]) -> dict[str, Any]:
    """The options with the preset's values wherever the user left an option at its default."""
    if not given.get("preset"):
        return given
    chosen = dict(given)
    for name, value in PRESETS[given["preset"]].items():
        if context.get_parameter_source(name) in (None, click.core.ParameterSource.DEFAULT):
            chosen[name] = value
    return chosen
