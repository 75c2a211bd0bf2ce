"""One export: select, split, build the records and samples, write the format, write the manifest."""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from annotator.domain.model_space import ModelSpace
from annotator.domain.prompts import (
    DEFAULT_PROMPT_VARIANT,
    HISTORY_IN_MESSAGES,
    HISTORY_PLACES,
    MOBILE_R1_VARIANTS,
    PromptVariant,
)
from annotator.domain.target_box import BoxProvenance
from annotator.domain.trajectory import LabelledTrajectory, ReviewStatus
from annotator.imaging.kept_copies import CACHE_FOLDER
from annotator.storage.failures import NO_ROOM
from annotator.storage.selection import TrajectorySelection, selected_keys
from annotator.storage.staging import staging_folder
from annotator.storage.trajectories import load_trajectories
from annotator.storage.workspace import Workspace
from trainer_bridge.export.anonymise import scrub_trajectory
from trainer_bridge.export.formats import FORMATS, IMAGE_STORAGES, SFT_ONLY, WRITERS
from trainer_bridge.export.grpo import grpo_action_sample
from trainer_bridge.export.images import ExportImages, prepared
from trainer_bridge.export.manifest import Tally, write_manifest
from trainer_bridge.export.record import TrainingRecord, recovery_records, training_records
from trainer_bridge.export.sft import (
    INSTRUCTION_LEVELS,
    Sample,
    at_level,
    content_key,
    levels_written,
    sayable,
    sft_sample,
)
from trainer_bridge.export.splits import SplitPlan, assign_splits
from trainer_bridge.export.tasks import task_samples

STAGES = ("sft", "grpo-action", "grpo-task")
PRIVACY_MODES = ("blur", "black", "none")
BOXED_ACTIONS = ("click", "long_press")  # judged by the point in the target box (a swipe by its direction too)
EXPORT_DEFAULT = TrajectorySelection(review_states=(str(ReviewStatus.ACCEPTED),))  # accepted trajectories
Progress = Callable[[int, int], None]


class ExportError(ValueError):
    """The export cannot be made as asked; nothing was written."""


@dataclass(frozen=True)
class ExportOptions:
    stage: str
    format: str
    out: Path
    space: ModelSpace
    history_images: int = 2
    after_errors: bool = False
    instruction_level: str = "task"
    keep_duplicates: bool = False
    keep_pii: bool = False
    privacy: str = "blur"  # how privacy regions are masked: blur, black, or none
    error_recovery: bool = False  # grpo-action: InfiGUI-R1's error-escape and back-on-track rows, when asked
    prompt_variant: PromptVariant = DEFAULT_PROMPT_VARIANT  # the system prompt's text (annotator.domain.prompts)
    image_cache: bool = True  # keep the copies made in the data folder for the next export (output unchanged)
    # UI-R1 3.3 "Quality": only clean element annotations for clicks; leave out click and long-press rows whose
    # target box no person drew or accepted (a suggestion from the screen's elements may be misaligned).
    checked_boxes: bool = False
    selection: TrajectorySelection = field(default_factory=lambda: EXPORT_DEFAULT)
    splits: SplitPlan = field(default_factory=SplitPlan)
    # Trajectories whose judge results the person exporting must not see (storage.studies.hidden_judging): no
    # judge score in their samples, and left out of a selection by score, whatever their scores.
    withheld: frozenset[int] = frozenset()
    # Model-based data selection (trainer_bridge.select): per instruction level written, only the rows of these
    # steps (by record.step_id); None keeps all. `kept_by` says which selection run and keep rule chose them.
    keep_steps: Mapping[str, frozenset[int]] | None = None
    kept_by: dict[str, Any] | None = None
    image_storage: str | None = None  # where the screenshots go (formats.IMAGE_STORAGES); None: the format's default

    @property
    def storage(self) -> str:
        return self.image_storage or IMAGE_STORAGES[self.format][0]

    def more_options(self) -> dict[str, object]:
        """The options the manifest keeps as written, beside the settings it types (ExportManifest's fields)."""
        return (
            {
                "after_errors": self.after_errors,
                "keep_duplicates": self.keep_duplicates,
                "keep_pii": self.keep_pii,
                "privacy": self.privacy,
                "error_recovery": self.error_recovery,
                "checked_boxes": self.checked_boxes,
                "selection": self.selection.as_json(),
                "splits": self.splits.as_json(),
            }
            | ({"judge_results_withheld": len(self.withheld)} if self.withheld else {})
            | self._selected()
        )

    def _selected(self) -> dict[str, object]:
        if self.keep_steps is None:
            return {}  # the manifest of an export without a selection stays as it was
        counts = {level: len(steps) for level, steps in self.keep_steps.items()}
        return {"select": (self.kept_by or {}) | {"steps_kept": counts}}


def _check(options: ExportOptions) -> None:
    if options.stage not in STAGES:
        raise ExportError(f"stage {options.stage!r}: expected one of {', '.join(STAGES)}")
    if options.format not in FORMATS:
        raise ExportError(f"format {options.format!r}: expected one of {', '.join(FORMATS)}")
    if options.image_storage is not None and options.image_storage not in IMAGE_STORAGES[options.format]:
        allowed = " or ".join(IMAGE_STORAGES[options.format])
        raise ExportError(f"{options.format} holds its screenshots as {allowed}, not {options.image_storage}")
    if options.format in SFT_ONLY and options.stage != "sft":
        raise ExportError(f"the {options.format} format holds SFT data only; use trl, easyr1 or jsonl")
    if options.privacy not in PRIVACY_MODES:
        raise ExportError(f"privacy {options.privacy!r}: expected one of {', '.join(PRIVACY_MODES)}")
    if options.instruction_level not in INSTRUCTION_LEVELS:
        raise ExportError(f"instruction level {options.instruction_level!r}: expected {', '.join(INSTRUCTION_LEVELS)}")
    if options.history_images > 1 and HISTORY_PLACES[options.prompt_variant] != HISTORY_IN_MESSAGES:
        raise ExportError(
            f"--prompt-variant {options.prompt_variant} shows the current screenshot only, as its paper "
            f"does: use --history-images 1 (or --preset {options.prompt_variant})"
        )
    if options.keep_steps is not None and options.stage == "grpo-task":
        raise ExportError("a selection keeps steps, and a grpo-task row is a whole task: export sft or grpo-action")
    if options.out.exists() and any(options.out.iterdir()):
        raise ExportError(f"{options.out} is not empty; choose a new folder (an export never overwrites)")


class _SampleStream:
    """The samples of each split, made as a writer asks for them; duplicates across the export left out."""

    def __init__(self, workspace: Workspace, options: ExportOptions, tally: Tally, progress: Progress) -> None:
        self.workspace, self.options, self.tally, self.progress = workspace, options, tally, progress
        self.seen: set[str] = set()
        self.done = 0

    def split(self, name: str, ids: list[int], judge_id: int | None, total: int) -> Iterator[Sample]:
        options = self.options
        trajectories = load_trajectories(self.workspace.database, ids, judge_id=judge_id)
        if options.withheld:
            trajectories = (_without_judging(trajectory, options.withheld) for trajectory in trajectories)
        if not options.keep_pii:
            trajectories = (scrub_trajectory(trajectory, self.tally.pii) for trajectory in trajectories)
        if options.stage == "grpo-task":
            yield from self._tasks(name, list(trajectories), total)
            return
        for trajectory in trajectories:
            for record in self._records(trajectory):
                if (
                    options.prompt_variant not in MOBILE_R1_VARIANTS
                    and sayable(record, options.space, options.prompt_variant) is None
                ):
                    self.tally.unsayable[action_name(record)] += 1
                    continue
                if options.checked_boxes and unchecked_box(record):
                    self.tally.unchecked_boxes[action_name(record)] += 1
                    continue
                yield from self._new_samples(name, record)
            self.done += 1
            self.progress(self.done, total)

    def _new_samples(self, split: str, record: TrainingRecord) -> Iterator[Sample]:
        """The record's sample at each level written that its selection keeps; duplicates left out."""
        options, keep = self.options, self.options.keep_steps
        for level in levels_written(options.instruction_level):
            # Every kind of row goes by its own step: a selection asks `step` rows only, so a correction,
            # after-error or recovery row (a step it never asked: a wrong step's screen or a later one) has no
            # pass rate to keep.
            if keep is not None and record.step_id not in keep[level]:
                continue
            sample = self._sample(record, level)
            key = content_key(sample)
            if key in self.seen and not options.keep_duplicates:
                self.tally.duplicates += 1
                continue
            self.seen.add(key)
            self.tally.add(split, sample)
            yield sample

    def _tasks(self, name: str, trajectories: list[LabelledTrajectory], total: int) -> Iterator[Sample]:
        for sample in task_samples(trajectories, self.options.space, self.options.prompt_variant):
            self.tally.add(name, sample)
            yield sample
        self.done += len(trajectories)
        self.progress(self.done, total)

    def _records(self, trajectory: LabelledTrajectory) -> Iterator[TrainingRecord]:
        records = training_records(trajectory, after_errors=self.options.after_errors)
        if self.options.stage == "grpo-action" and self.options.error_recovery:
            records = itertools.chain(records, recovery_records(trajectory))
        return records

    def _sample(self, record: TrainingRecord, level: str) -> Sample:
        options = self.options
        record = at_level(record, level)
        if options.stage == "grpo-action":
            sample = grpo_action_sample(record, options.space, options.history_images, options.prompt_variant)
        else:
            sample = sft_sample(record, options.space, options.history_images, options.prompt_variant)
        if options.instruction_level == "both":
            sample = replace(sample, sample_id=f"{sample.sample_id}-{level}", level=level)
        return sample


def _samples_by_split(
    workspace: Workspace, options: ExportOptions, tally: Tally, progress: Progress, images: ExportImages
) -> dict[str, Iterable[Sample]]:
    judge_id, keys = selected_keys(workspace.database, options.selection)
    if options.withheld and options.selection.min_judge_score is not None:
        keys = [key for key in keys if key.trajectory_id not in options.withheld]  # whatever their scores
    plan = options.splits
    if options.stage == "grpo-task" and plan.unit == "trajectory":
        plan = replace(plan, unit="instruction")  # a task row stands for all runs of its instruction
    try:
        assigned = assign_splits(keys, plan)
    except ValueError as error:
        raise ExportError(str(error)) from None
    stream = _SampleStream(workspace, options, tally, progress)
    tally.splits = list(assigned)
    progress(0, len(keys))
    return {name: prepared(stream.split(name, ids, judge_id, len(keys)), images) for name, ids in assigned.items()}


def action_name(record: TrainingRecord) -> str:
    return str(record.tool_call.get("arguments", {}).get("action", "?"))


def unchecked_box(record: TrainingRecord) -> bool:
    """A row judged by its target box (a click or long press) whose box no person drew or accepted."""
    return action_name(record) in BOXED_ACTIONS and record.box_provenance != BoxProvenance.ANNOTATOR


def _without_judging(trajectory: LabelledTrajectory, withheld: frozenset[int]) -> LabelledTrajectory:
    return replace(trajectory, judge_score=None) if trajectory.id in withheld else trajectory


def export(workspace: Workspace, options: ExportOptions, on_progress: Progress | None = None) -> Tally:
    """Write the export into `options.out` (a new or empty folder); a failure leaves no partial output."""
    _check(options)
    tally = Tally(options.prompt_variant)
    building = staging_folder(options.out)
    mask = None if options.privacy == "none" else options.privacy
    cache = workspace.data_dir / CACHE_FOLDER if options.image_cache else None
    images = ExportImages(workspace.blobs, building / "images", mask, cache)
    try:
        progress = on_progress or (lambda done, total: None)
        samples = _samples_by_split(workspace, options, tally, progress, images)
        hashed = WRITERS[options.format, options.storage](samples, building, images, options.space, options.stage)
        tally.masked_images = len(images.masked)
        tally.images_made, tally.images_reused = images.made, images.reused
        known = images.known_hashes(building) | hashed
        write_manifest(building, workspace, options, tally, known)
        if options.out.exists():
            options.out.rmdir()
        building.rename(options.out)
    except BaseException as error:
        images.close()  # no file is being written into the folder removed
        shutil.rmtree(building, ignore_errors=True)
        if isinstance(error, OSError) and error.errno in NO_ROOM:
            raise ExportError(f"could not write {options.out}: {error.strerror}; nothing was written") from error
        raise
    finally:
        images.close()
    return tally
