"""`trainer-bridge eval --online` without the printing: pick the phones and the instructions, then run.

The phones are the adb server's usable ones (all of them, or those named), each remembered in the workspace with
its details as collection remembers a phone, so its trajectories show which phone ran them. The instructions are
the active ones of the apps named, or those named by id. Every problem with the choice is an `OnlineError` whose
message says what is connected or stored, so the command can show it as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from annotator.device.adb import adb_client, usable_serials
from annotator.device.android import AndroidDevice
from annotator.device.errors import DeviceError
from annotator.domain.trajectory import InstructionStatus
from annotator.llm.client import LLMConfig
from annotator.storage import collection, instructions
from annotator.storage.workspace import Workspace
from trainer_bridge.evaluate.local_agent import LocalAgent
from trainer_bridge.evaluate.online import OnlineEvaluation, OnlineJob, OnlineProgress, OnlineResult
from trainer_bridge.evaluate.online_rollout import OnlineJudge


class OnlineError(RuntimeError):
    """The evaluation cannot start; the message says what to do."""


def run_online_command(
    workspace: Workspace,
    endpoint: LLMConfig,
    *,
    device_serials: tuple[str, ...],
    adb_port: int | None,
    app: tuple[str, ...],
    instruction_ids: tuple[int, ...],
    runs: int,
    max_steps: int,
    history_images: int,
    prompt_variant: str,
    judge_model: str | None,
    judge_base_url: str | None,
    name: str | None,
    resume: bool,
    on_progress: Callable[[OnlineProgress], None] | None,
    local: LocalAgent | None = None,
    restart_app: bool = True,
) -> OnlineResult:
    """Run the policy at `endpoint` (or the `local` model it names) on the phones over the instructions; nothing is
    printed."""
    chosen = choose_instructions(workspace, app, instruction_ids)
    if judge_base_url is not None and judge_model is None:
        raise OnlineError("--judge-base-url needs --judge-model: the judge's model as that server knows it")
    judge = OnlineJudge(judge_model, judge_base_url) if judge_model else None
    try:
        job = OnlineJob(
            name or f"{endpoint.model} on phones",
            chosen,
            runs=runs,
            max_steps=max_steps,
            history_images=history_images,
            prompt_variant=prompt_variant,
            judge=judge,
            resume=resume,
            restart_app=restart_app,
        )
    except ValueError as error:
        raise OnlineError(str(error)) from None
    devices = choose_devices(device_serials, adb_port)
    for device in devices:
        device.packages = remember_device(workspace, device)
    return OnlineEvaluation(workspace, endpoint, devices, job, local).run(on_progress)


def choose_devices(serials: tuple[str, ...], port: int | None) -> list[AndroidDevice]:
    """The phones named (each must be connected and usable), or every usable one; each with a client of its own."""
    try:
        chosen = usable_serials(adb_client(port=port), serials)
    except DeviceError as error:
        raise OnlineError(str(error)) from None
    return [AndroidDevice(adb_client(port=port), serial) for serial in chosen]


def remember_device(workspace: Workspace, device: AndroidDevice) -> dict[str, str]:
    """Store the phone's details (as collection does); returns its app name -> package table."""
    try:
        info = device.info()
    except DeviceError as error:
        raise OnlineError(f"phone {device.serial}: {error}") from None
    details = {"model": info.model, "android_version": info.android_version, "density": info.density}
    details |= {"screen_width": info.width, "screen_height": info.height}
    collection.save_device(workspace.database, info.serial, details)
    return collection.device_app_packages(workspace.database, info.serial)


def choose_instructions(
    workspace: Workspace, apps: tuple[str, ...], ids: tuple[int, ...]
) -> tuple[tuple[int, str, str], ...]:
    """(id, text, app) of the instructions named by id (of the apps, when apps are given too), else the apps'
    active instructions."""
    db = workspace.database
    if ids:
        found = {iid: instructions.find_instruction(db, iid) for iid in dict.fromkeys(ids)}
        unknown = [str(iid) for iid, record in found.items() if record is None]
        if unknown:
            raise OnlineError(f"no instruction {', '.join(unknown)}; see `annotator instructions list`")
        records = [record for record in found.values() if record is not None]
        other = [f"{record.id} ({record.app})" for record in records if apps and record.app not in apps]
        if other:
            raise OnlineError(f"instructions of other apps than {', '.join(apps)}: {', '.join(other)}")
        return tuple((record.id, record.text, record.app) for record in records)
    if not apps:
        raise OnlineError("say what to run: --app NAME (its active instructions) or --instruction-id N")
    active = str(InstructionStatus.ACTIVE)
    records = [
        record for name in dict.fromkeys(apps) for record in instructions.list_instructions(db, app=name, status=active)
    ]
    if not records:
        stored = sorted({record.app for record in instructions.list_instructions(db, status=active)})
        raise OnlineError(
            f"no active instruction of {', '.join(apps)}; apps with active instructions: {', '.join(stored) or 'none'}"
            " (add some with `annotator instructions import`)"
        )
    return tuple((record.id, record.text, record.app) for record in records)
