"""What the app's Runs view needs of training: the shipped recipes, the exports a run can train on, the runs of the
workspace with their curves, completions and log, and the `trainer-bridge` command lines that launch, cancel,
resume and evaluate them.

The app starts training through the bridge's own command in a subprocess, never in its own process: a run must
outlive the window (`train --detach` leaves a follower behind that copies the events into the database), torch
must not load into the app, and the command's checks and one-line errors are the same as on a terminal. The
workspace's database URL goes to the subprocess in its environment, not its arguments, where `ps` would show a
password.
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import socket
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.domain.export_manifest import ManifestError, read_export_manifest
from annotator.domain.recipes import TRAIN_PACKAGES, load_recipe, recipe_names
from annotator.storage import evaluations, training_runs
from annotator.storage.database import Database, sqlite_url
from annotator.storage.training_runs import REWARD_KEYS, RunInfo
from annotator.storage.workspace import DATABASE_FILE, DB_URL_ENV, Workspace

# `trainer-bridge` as this interpreter runs it (the script may not be on PATH), by name: the app never imports the
# trainer bridge (import-linter keeps it so).
CLI = (sys.executable, "-m", "trainer_bridge")
EXPORTS = "exports"  # where the app looks for exports in a workspace folder (the demo writes its own there)
EVENTS_LOG = "train.log"
# The settings the launch panel edits; any other key goes through a free `--set key=value`.
MAIN_SETTINGS = ("learning_rate", "num_train_epochs", "max_steps", "num_generations")
GRPO_ONLY = ("num_generations",)
TAIL_LINES = 40
TAIL_BYTES = 64_000  # 40 lines fit well within; a log can be gigabytes


@dataclass(frozen=True)
class Recipe:
    name: str
    description: str
    paper: str
    script: str
    stage: str
    settings: dict[str, Any]  # the recipe's values of MAIN_SETTINGS it has

    @property
    def grpo(self) -> bool:
        return self.script != "sft"


@dataclass(frozen=True)
class ExportFolder:
    path: Path
    stage: str
    format: str
    samples: int


@dataclass(frozen=True)
class Launch:
    """What the launch panel asks for: `settings` holds only the values the person changed."""

    recipe: str
    data: Path
    settings: dict[str, str] = field(default_factory=dict)
    free_sets: str = ""  # "key=value key2=value2", as typed (--set may be written before each)
    gpus: int | None = None
    model: str = ""


@dataclass(frozen=True)
class Curve:
    steps: list[int]
    values: list[float]


@dataclass(frozen=True)
class RunDetail:
    run: RunInfo
    loss: Curve
    reward: Curve
    completions: list[dict[str, Any]]  # the latest batch's rows: `completion` and each reward's score
    completions_step: int | None
    log_tail: str
    checkpoint: str | None  # what `eval --model-path` is given: the saved model, else the last checkpoint


def missing_packages() -> list[str]:
    """The training extra's packages this interpreter lacks (found without importing them: torch takes seconds)."""
    return [name for name in ("yaml", *TRAIN_PACKAGES) if importlib.util.find_spec(name) is None]


def recipes() -> list[Recipe]:
    found = []
    for name in recipe_names():
        keys = load_recipe(name)
        settings = {key: keys[key] for key in MAIN_SETTINGS if key in keys}
        found.append(
            Recipe(
                name,
                str(keys.get("description", "")),
                str(keys.get("paper", "")),
                keys["script"],
                str(keys.get("stage", "")),
                settings,
            )
        )
    return found


def read_export(folder: Path) -> ExportFolder | None:
    """The export in `folder`, or None when it has no readable manifest (the list shows only what can train)."""
    try:
        manifest = read_export_manifest(folder)
    except ManifestError:
        return None
    return ExportFolder(folder, manifest.stage, manifest.format, manifest.samples)


def find_exports(data_dir: Path, also: Iterable[str] = ()) -> list[ExportFolder]:
    """The exports under `<data_dir>/exports`, those earlier runs trained on, and `also` (a folder chosen before),
    each once, by path."""
    candidates = [*sorted((data_dir / EXPORTS).glob("*/")), *(Path(path) for path in also if path)]
    found: dict[Path, ExportFolder] = {}
    for folder in candidates:
        export = read_export(folder)
        if export is not None and folder.resolve() not in found:
            found[folder.resolve()] = export
    return list(found.values())


def trained_on(db: Database) -> list[str]:
    """The export folders of the workspace's runs, the newest first."""
    return list(dict.fromkeys(run.data_dir for run in training_runs.list_runs(db)))


# command lines --------------------------------------------------------------------------------------------------


def cli_environment(workspace: Workspace) -> dict[str, str]:
    """What the subprocess's environment adds: the workspace's database (a URL may hold a password)."""
    return {DB_URL_ENV: workspace.database.url}


def workspace_args(workspace: Workspace) -> list[str]:
    return ["--data-dir", str(workspace.data_dir)]


def free_sets(text: str) -> list[str]:
    """`key=value` pairs as typed: separated by spaces (quoted if a value has one), `--set` optional."""
    return [word for word in shlex.split(text) if word != "--set"]


def train_args(launch: Launch) -> list[str]:
    """`train`'s arguments for `launch`, without the workspace's."""
    args = ["train", launch.recipe, "--data", str(launch.data)]
    if launch.model.strip():
        args += ["--model", launch.model.strip()]
    if launch.gpus is not None:
        args += ["--gpus", str(launch.gpus)]
    for key, value in launch.settings.items():
        args += ["--set", f"{key}={value}"]
    for pair in free_sets(launch.free_sets):
        args += ["--set", pair]
    return args


def launch_argv(launch: Launch, workspace: Workspace) -> list[str]:
    return [*CLI, *train_args(launch), *workspace_args(workspace), "--detach"]


def dry_run_argv(launch: Launch, workspace: Workspace) -> list[str]:
    return [*CLI, *train_args(launch), *workspace_args(workspace), "--dry-run"]


def shell_command(launch: Launch, workspace: Workspace) -> str:
    """The `trainer-bridge train` line to run on a GPU machine that reaches this workspace."""
    where = workspace_args(workspace)
    if workspace.database.url != sqlite_url(workspace.data_dir / DATABASE_FILE):
        where = ["--db", workspace.database.safe_url]  # a team's database: its password is not shown
    return shlex.join(["trainer-bridge", *train_args(launch), *where])


def cancel_argv(run_id: int, workspace: Workspace) -> list[str]:
    return [*CLI, "runs", "cancel", str(run_id), *workspace_args(workspace)]


def resume_argv(run_id: int, workspace: Workspace) -> list[str]:
    return [*CLI, "runs", "resume", str(run_id), "--detach", *workspace_args(workspace)]


def eval_argv(run: RunInfo, model_path: str, workspace: Workspace) -> list[str]:
    """An offline evaluation of the run's model, asked as the run's export was written (its manifest); named after
    the run, so the Models view's list says where it came from."""
    name = f"run {run.id} {run.recipe} ({Path(model_path).name})"
    return [
        *CLI,
        "eval",
        "--model-path",
        model_path,
        "--export",
        run.data_dir,
        "--name",
        name,
        "--json",
        *workspace_args(workspace),
    ]


def evaluation_started_by(db: Database, pid: int) -> int | None:
    """The evaluation an `eval` command this app started (process `pid`, on this machine) writes to, once it has
    begun one: the Runs view opens it in the Models view while it runs."""
    return evaluations.running_in(db, socket.gethostname(), pid)


def error_line(output: str) -> str:
    """The command's one line about why it refused (`Error: ...` from click, `error: ...` from a script), else its
    last line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    said = [line for line in lines if line.lower().startswith("error:")]
    return (said or lines or [""])[-1]


def last_json(output: str) -> dict[str, Any] | None:
    """The last line of `output` that is a JSON object (`eval --json` ends with one)."""
    for line in reversed(output.splitlines()):
        if line.startswith("{"):
            try:
                found = json.loads(line)
            except ValueError:
                continue
            return found if isinstance(found, dict) else None
    return None


# reading runs ---------------------------------------------------------------------------------------------------


def list_runs(db: Database) -> list[RunInfo]:
    return training_runs.list_runs(db)


def run_detail(db: Database, run_id: int) -> RunDetail:
    run = training_runs.get_run(db, run_id)
    rows = training_runs.run_events(db, run_id, ("completions",))
    latest = rows[-1] if rows else None
    logs = logged_steps(db, run)
    return RunDetail(
        run,
        _curve(logs, ("loss",)),
        _curve(logs, REWARD_KEYS),
        list(latest.data.get("rows", [])) if latest else [],
        latest.step if latest else None,
        log_tail(run.output_dir),
        model_to_evaluate(Path(run.output_dir)),
    )


def logged_steps(db: Database, run: RunInfo) -> list[training_runs.EventRecord]:
    """The run's logged steps after those of the runs it resumes: a resumed run's curves go on from where the
    earlier ones stopped, as its steps do; a step logged again after a resume is the later run's."""
    chain, seen = [run], {run.id}
    while chain[0].resumed_from is not None and chain[0].resumed_from not in seen:
        seen.add(chain[0].resumed_from)
        try:
            chain.insert(0, training_runs.get_run(db, chain[0].resumed_from))
        except training_runs.RunNotFoundError:
            break
    merged: list[training_runs.EventRecord] = []
    for each in chain:
        events = training_runs.run_events(db, each.id, ("log",))
        logs = [e for e in events if e.step is not None and "train_runtime" not in e.data]
        first = min((e.step for e in logs if e.step is not None), default=None)
        merged = [e for e in merged if first is None or (e.step is not None and e.step < first)] + logs
    return merged


def _curve(logs: Sequence[training_runs.EventRecord], keys: Sequence[str]) -> Curve:
    steps, values = [], []
    for record in logs:
        value = next((record.data[key] for key in keys if isinstance(record.data.get(key), (int, float))), None)
        if value is not None and record.step is not None:
            steps.append(record.step)
            values.append(float(value))
    return Curve(steps, values)


def is_model(folder: Path) -> bool:
    """A folder `eval --model-path` loads: a saved model, or a LoRA adapter over one."""
    return (folder / "config.json").is_file() or (folder / "adapter_config.json").is_file()


def model_to_evaluate(output_dir: Path) -> str | None:
    """The run's saved model (written when training ends), else the newest checkpoint in its folder (a resumed run
    shares its folder, and its checkpoints, with the run it resumes)."""
    if is_model(output_dir):
        return str(output_dir)
    numbered = [
        (int(path.name.split("-")[1]), path)
        for path in output_dir.glob("checkpoint-*")
        if path.name.split("-")[1].isdigit() and is_model(path)
    ]
    return str(max(numbered)[1]) if numbered else None


def log_tail(output_dir: str, lines: int = TAIL_LINES) -> str:
    """The last lines of the run's log as a terminal shows them: a progress bar redrawn with carriage returns is
    its last state."""
    path = Path(output_dir) / EVENTS_LOG
    try:
        with open(path, "rb") as file:
            file.seek(max(0, path.stat().st_size - TAIL_BYTES))
            text = file.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    shown = [line.rstrip("\r").rsplit("\r", 1)[-1] for line in text.split("\n")]
    return "\n".join(shown[-lines:]).strip("\n")
