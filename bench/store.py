"""Benchmark the store: import bundle, export bundle and stats against a plain copy of the same bytes.

Writes a realistic bundle (distinct 1080x2400 PNG screenshots, ~50 KB UI hierarchies, labels, revisions,
reviews), then times in the same run `shutil.copytree` of it, `import_bundle` into a fresh workspace,
`export_bundle` of everything and `dataset_stats`; prints one JSON object (docs/architecture.md#benchmarks) last.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import common
from common import HEIGHT, WIDTH, WORDS, render_screen, run_in_workdir, with_text_chunk

from annotator.domain.counting import Counting
from annotator.services import bundle_manifest as fmt
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.stats import dataset_stats
from annotator.storage.bundles import LABEL_COLUMNS
from annotator.storage.workspace import Workspace

APPS = [
    ("Gmail", "com.google.android.gm", "Inbox"),
    ("Maps", "com.google.android.apps.maps", "Explore"),
    ("Settings", "com.android.settings", "Settings"),
    ("Shopping", "com.amazon.mShop.android.shopping", "Your orders"),
]
ACTIONS = {"click": 50, "swipe": 15, "type": 12, "system_button": 10, "long_press": 8, "wait": 5}
REVIEW_STATES = ["unlabelled", "unlabelled", "in_progress", "annotated", "accepted", "rejected"]
ANNOTATORS, REVIEWER = ["ana", "bruno", "chen"], "dana"
EPOCH = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
FLAGS = ["checkable", "checked", "clickable", "enabled", "focusable", "focused", "scrollable", "selected"]
TIMED = ("import", "export")
TIMES = ("copy", "import", "import_sync", "export", "stats")


log = functools.partial(print, "[bench store]", file=sys.stderr, flush=True)


def node(index: int, cls: str, package: str, box: tuple[int, ...], text: str = "", *true: str) -> str:
    """The opening of a uiautomator <node> (the caller closes it with '/>' or '>')."""
    flags = " ".join(f'{name}="{str(name in true or name == "enabled").lower()}"' for name in FLAGS)
    return (
        f'<node index="{index}" text="{text}" resource-id="" class="android.{cls}" package="{package}" '
        f'content-desc="" {flags} bounds="[{box[0]},{box[1]}][{box[2]},{box[3]}]"'
    )


def hierarchy_template(app: int, size: int = 50_000) -> tuple[bytes, bytes]:
    """A uiautomator-style dump of about `size` bytes, cut where a per-step stamp goes (the clock text)."""
    rng, (_, package, title), system = random.Random(app), APPS[app], "com.android.systemui"
    head = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
    head += node(0, "widget.FrameLayout", system, (0, 0, WIDTH, 80)) + ">"
    head += node(0, "widget.TextView", system, (40, 10, 200, 70), "\0")
    rows = ["/></node>", node(1, "widget.FrameLayout", package, (0, 80, WIDTH, HEIGHT)) + ">"]
    rows.append(node(0, "widget.TextView", package, (40, 110, 600, 210), title) + "/>")
    rows.append(node(1, "widget.ListView", package, (0, 240, WIDTH, 2200), "", "scrollable") + ">")
    index = 0
    while sum(map(len, rows)) + len(head) < size:
        y = 260 + (index % 12) * 160
        headline = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(2, 6)))
        rows += [
            node(index, "view.ViewGroup", package, (0, y, WIDTH, y + 160), "", "clickable") + ">",
            node(0, "widget.ImageView", package, (40, y + 20, 160, y + 140)) + "/>",
            node(1, "widget.TextView", package, (190, y + 20, 1000, y + 70), headline) + "/>",
            node(2, "widget.TextView", package, (190, y + 80, 1000, y + 120), headline[::-1]) + "/>",
            node(3, "widget.CheckBox", package, (980, y + 50, 1040, y + 110), "", "checkable") + "/>",
            "</node>",
        ]
        index += 1
    rows.append("</node></node></hierarchy>")
    before, after = (head + "".join(rows)).split("\0")
    return before.encode(), after.encode()


def tool_call(rng: random.Random, index: int, count: int, app: int) -> dict[str, Any]:
    """A mobile_use call: open first, terminate last, a realistic mix of actions between."""
    point = [rng.randrange(WIDTH), rng.randrange(300, HEIGHT - 200)]
    kind = rng.choices(list(ACTIONS), list(ACTIONS.values()))[0]
    kind = "open" if index == 0 else "terminate" if index == count - 1 else kind
    arguments = {
        "open": {"text": APPS[app][0]},
        "terminate": {"status": rng.choice(["success", "success", "failure"])},
        "click": {"coordinate": point},
        "long_press": {"coordinate": point, "time": 2},
        "swipe": {"coordinate": [540, 1800], "coordinate2": [540, 700]},
        "type": {"text": " ".join(rng.choice(WORDS) for _ in range(3))},
        "system_button": {"button": rng.choice(["Back", "Home", "Enter"])},
        "wait": {"time": 2},
    }[kind]
    return {"name": "mobile_use", "arguments": {"action": kind} | arguments}


def label_for(rng: random.Random, call: dict[str, Any], when: datetime) -> tuple[dict, list[dict]]:
    """A filled label and the revisions that made it (one per field, sometimes a reviewer's fix)."""
    action, point = call["arguments"]["action"], call["arguments"].get("coordinate")
    box = [point[0] - 60, point[1] - 40, point[0] + 60, point[1] + 40] if point else None
    label = {"think": f"The screen shows the list; to go on I should {action} next. " * 3}
    label |= {"action_text": f"{action.replace('_', ' ').capitalize()} on the matching item."}
    label |= {"tool_call": call, "target_box": box}
    label |= {"verdict": rng.choices(["correct", "wrong", "redundant"], [85, 10, 5])[0]}
    person, stamp = rng.choice(ANNOTATORS), (when + timedelta(days=1)).isoformat()
    by = {"old": None, "person": person, "created_at": stamp}
    revisions = [{"field": key, "new": value} | by for key, value in label.items() if value is not None]
    if rng.random() < 0.2:
        fixed, later = ("wrong" if label["verdict"] == "correct" else "correct"), when + timedelta(days=2)
        revisions.append({"field": "verdict", "old": label["verdict"], "new": fixed, "person": REVIEWER})
        revisions[-1]["created_at"] = later.isoformat()
        label["verdict"] = fixed
    return label | {"updated_at": revisions[-1]["created_at"]}, revisions


class BundleWriter:
    """Writes blobs/<sha256> and manifest.json of a synthetic bundle, straight in the bundle format."""

    def __init__(self, folder: Path, pool_size: int, seed: int) -> None:
        self.folder = folder
        (folder / fmt.BLOB_FOLDER).mkdir(parents=True)
        self.rng = random.Random(seed)
        self.screens = [render_screen(seed + i) for i in range(pool_size)]
        self.hierarchies = [hierarchy_template(app) for app in range(len(APPS))]
        self.blobs: list[dict[str, Any]] = []
        self.bytes = 0

    def blob(self, data: bytes, media_type: str, image: bool) -> str:
        sha256 = hashlib.sha256(data).hexdigest()
        (self.folder / fmt.BLOB_FOLDER / sha256).write_bytes(data)
        entry = {"sha256": sha256, "size": len(data), "media_type": media_type}
        self.blobs.append(entry | {"width": WIDTH if image else None, "height": HEIGHT if image else None})
        self.bytes += len(data)
        return sha256

    def step(self, uid: str, index: int, count: int, app: int, agent: bool, when: datetime) -> dict:
        stamp, package = f"{uid}/{index}", APPS[app][1]
        screenshot = self.blob(with_text_chunk(self.rng.choice(self.screens), stamp), "image/png", True)
        failed = self.rng.random() < 0.02
        head, tail = self.hierarchies[app]
        hierarchy = None if failed else self.blob(head + stamp.encode() + tail, "application/xml", False)
        call = tool_call(self.rng, index, count, app)
        reply = f"<think>\nLooking at the screen.\n</think>\n<tool_call>\n{json.dumps(call)}\n</tool_call>"
        timings = {"screenshot": round(self.rng.uniform(300, 900), 1), "hierarchy": 1800.0}
        return (
            {"index": index, "screenshot_sha256": screenshot, "hierarchy_sha256": hierarchy}
            | {"hierarchy_error": "uiautomator dump timed out after 5 s" if failed else None}
            | {"package": package, "activity": f"{package}.MainActivity", "rotation": 0}
            | {"screen_width": WIDTH, "screen_height": HEIGHT, "raw_tool_call": call, "timings_ms": timings}
            | {"model_reply": reply if agent else None, "observed_at": when.isoformat(), "revisions": []}
            | {"label": dict.fromkeys([*LABEL_COLUMNS, "updated_at"])}
        )

    def trajectory(self, number: int, count: int, instruction: dict[str, Any], app: int) -> dict:
        uid, agent = f"00000000-0000-4000-8000-{number:012d}", self.rng.random() < 0.5
        start = EPOCH + timedelta(minutes=7 * number)
        steps = [self.step(uid, i, count, app, agent, start + timedelta(seconds=4 * i)) for i in range(count)]
        review = self.rng.choice(REVIEW_STATES)
        for step in steps if review != "unlabelled" else []:
            step["label"], step["revisions"] = label_for(self.rng, step["raw_tool_call"], start)
        reviewed = {"status": review, "reviewer": REVIEWER, "comment": None}
        reviewed["created_at"] = (start + timedelta(days=2)).isoformat()
        human = {"collector_kind": "human", "collector_person": self.rng.choice(ANNOTATORS)}
        model = {"collector_kind": "agent", "agent_model": "Qwen2.5-VL-7B-Instruct"}
        ended = (start + timedelta(seconds=4 * count)).isoformat()
        return (
            {"uid": uid, "instruction_uid": instruction["uid"], "collector_person": None, "agent_model": None}
            | {"device_serial": f"emulator-555{4 + number % 2}", "run_number": 1, "agent_endpoint": None}
            | (model if agent else human)
            | {"status": "complete" if self.rng.random() < 0.9 else "interrupted", "review_status": review}
            | {"outcome": steps[-1]["raw_tool_call"]["arguments"].get("status")}
            | {"started_at": start.isoformat(), "ended_at": ended, "steps": steps}
            | {"reviews": [reviewed] if review in ("accepted", "rejected") else []}
        )

    def write(self, n_steps: int) -> dict[str, int]:
        trajectories, instructions, done = [], [], 0
        while done < n_steps:
            count, app = min(self.rng.randint(5, 25), n_steps - done), len(trajectories) % len(APPS)
            text = f"Find the {self.rng.choice(WORDS)} about {self.rng.choice(WORDS)} and open it"
            uid = f"10000000-0000-4000-8000-{len(trajectories):012d}"
            instruction = {"uid": uid, "app": APPS[app][0], "text": text, "source": "manual"}
            instructions.append(instruction | {"status": "active", "created_at": EPOCH.isoformat()})
            trajectories.append(self.trajectory(len(trajectories), count, instruction, app))
            done += count
        people = [{"name": name, "role": "annotator"} for name in ANNOTATORS]
        device = {"model": "Pixel 7", "android_version": "14", "screen_width": WIDTH, "screen_height": HEIGHT}
        manifest = (
            {"format": fmt.FORMAT_NAME, "format_version": fmt.FORMAT_VERSION, "created_by": "bench/store.py"}
            | {"created_at": datetime.now(UTC).isoformat()}
            | {"people": [*people, {"name": REVIEWER, "role": "reviewer"}]}
            | {"apps": [{"name": name, "package": package} for name, package, _ in APPS]}
            | {"devices": [{"serial": f"emulator-{s}", "density": 420} | device for s in (5554, 5555)]}
            | {"instructions": instructions, "blobs": sorted(self.blobs, key=lambda b: b["sha256"])}
            | {"trajectories": trajectories}
        )
        data = json.dumps(manifest, ensure_ascii=False, indent=1).encode()
        (self.folder / fmt.MANIFEST_NAME).write_bytes(data)
        self.bytes += len(data)
        return {"trajectories": len(trajectories), "blobs": len(self.blobs), "bytes": self.bytes}


def timed(action: Callable[[], Any], flush: bool = True) -> tuple[float, Any]:
    """Seconds that `action` took; first flush earlier writes (os.sync) so that it does not pay for them."""
    if flush:
        os.sync()
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SystemExit(f"bench store: {message}")


def one_round(work: Path, bundle: Path, expect: dict[str, int], times: dict[str, list[float]]) -> Path:
    """Copy, import into a fresh workspace, export it, stats; returns the workspace's folder."""
    shutil.rmtree(work / "ws", ignore_errors=True)
    times["copy"].append(timed(lambda: shutil.copytree(bundle, work / "copy"))[0])
    shutil.rmtree(work / "copy")
    workspace = Workspace.open(work / "ws")
    sync = workspace.blobs.sync  # time the import's flush to disk: in import_s, alongside the row writes
    workspace.blobs.sync = lambda: times["import_sync"].append(timed(sync, False)[0])  # type: ignore[method-assign]
    seconds, imported = timed(lambda: import_bundle(workspace, bundle))
    times["import"].append(seconds)
    added = {"steps": imported.steps_added, "blobs": imported.blobs_added}
    check(added == expect, f"import added {added}, expected {expect}")
    seconds, exported = timed(lambda: export_bundle(workspace, work / "export"))
    times["export"].append(seconds)
    check({"steps": exported.steps, "blobs": exported.blobs} == expect, f"export wrote {exported}")
    shutil.rmtree(work / "export")
    times["stats"] += [timed(lambda: dataset_stats(workspace.database, Counting.ROWS))[0] for _ in range(3)]
    stats = dataset_stats(workspace.database, Counting.ROWS)
    check(stats["steps"] == expect["steps"], f"stats counts {stats['steps']} steps")
    workspace.close()
    return work / "ws"


def zip_round(work: Path, workspace_dir: Path) -> dict[str, float]:
    """Export the workspace to a .zip and import that into a fresh workspace, once each."""
    log("zip export and import")
    archive = work / "bundle.zip"
    with Workspace.open(workspace_dir) as workspace:
        export_s, _ = timed(lambda: export_bundle(workspace, archive))
    with Workspace.open(work / "ws-zip") as fresh:
        import_s, _ = timed(lambda: import_bundle(fresh, archive))
    zip_bytes = archive.stat().st_size
    shutil.rmtree(work / "ws-zip")
    archive.unlink()
    return {"zip_export_s": round(export_s, 4), "zip_import_s": round(import_s, 4), "zip_bytes": zip_bytes}


def machine() -> dict[str, Any]:
    info = common.machine()
    with contextlib.suppress(ValueError, OSError, AttributeError):
        info["memory_gib"] = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    return info


def report(n_steps: int, made: dict[str, int], times: dict[str, list[float]], extra: dict) -> dict:
    median = {name: statistics.median(values) for name, values in times.items()}
    megabytes = made["bytes"] / 1e6
    figures = (
        {"n_steps": n_steps, "n_trajectories": made["trajectories"], "n_blobs": made["blobs"]}
        | {"bundle_bytes": made["bytes"], "repeats": len(times["copy"]), "page_cache": "warm"}
        | {f"{name}_s": round(value, 4) for name, value in median.items()}
        | {f"{name}_MB_per_s": round(megabytes / median[name], 1) for name in ("copy", "import", "export")}
        | {f"{name}_steps_per_s": round(n_steps / median[name], 1) for name in ("import", "export", "stats")}
        | {"all_s": {name: [round(v, 4) for v in values] for name, values in times.items()}}
        | extra
    )
    goal = {"target": 2.0, "unit": "x", "better": "lower"}
    goals = [{"name": f"{n}_vs_copy", "value": round(median[n] / median["copy"], 3)} | goal for n in TIMED]
    return {"bench": "store", "machine": machine(), "figures": figures, "goals": goals}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--steps", type=int, help="steps in the bundle (default 5000; 300 with --quick)")
    parser.add_argument("--quick", action="store_true", help="a small run, under a minute")
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds; figures are medians")
    parser.add_argument("--workdir", type=Path, help="where the work folder goes (default: system temp)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (bundle, workspace)")
    parser.add_argument("--no-zip", action="store_true", help="skip the zip export and import")
    args = parser.parse_args(argv)
    args.steps = args.steps or (300 if args.quick else 5000)
    return args


def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    started = time.perf_counter()
    log(f"generating a bundle of {args.steps} steps in {work}")
    writer = BundleWriter(work / "bundle", pool_size=8 if args.quick else 20, seed=1)
    made = writer.write(args.steps)
    extra: dict[str, Any] = {"generate_s": round(time.perf_counter() - started, 2)}
    for kind, media_type in (("png", "image/png"), ("xml", "application/xml")):
        sizes = [blob["size"] for blob in writer.blobs if blob["media_type"] == media_type]
        extra[f"mean_{kind}_bytes"] = round(statistics.mean(sizes))
    log(f"bundle: {made['bytes'] / 1e6:.0f} MB in {made['blobs']} blobs, {made['trajectories']} trajectories")
    expect = {"steps": args.steps, "blobs": made["blobs"]}
    times: dict[str, list[float]] = {name: [] for name in TIMES}
    for number in range(max(args.repeats, 1)):
        log(f"round {number + 1}/{args.repeats}: copy, import, export, stats")
        workspace_dir = one_round(work, work / "bundle", expect, times)
    command = [sys.executable, "-m", "annotator", "--data-dir", str(workspace_dir), "stats", "--json"]
    seconds, _ = timed(lambda: subprocess.run(command, check=True, capture_output=True))
    extra["cli_stats_s"] = round(seconds, 3)
    extra |= {} if args.no_zip else zip_round(work, workspace_dir)
    extra["total_s"] = round(time.perf_counter() - started, 1)
    return report(args.steps, made, times, extra)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return run_in_workdir("store", args.workdir, args.keep, lambda work: run(args, work), log)


if __name__ == "__main__":
    sys.exit(main())
