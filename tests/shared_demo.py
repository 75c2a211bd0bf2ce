"""The demo workspace built once per test run and copied for each test module that needs one.

Building the 12-trajectory demo takes ~40 s on 2 cores, and the learning tests and the recipe check each need it
(a copy of their own: both write to it). The first test process to ask builds it under a file lock in the folder the
run's processes share (pytest-xdist's workers have one temporary folder each, below a common one); the others wait
for it and copy it, instead of building their own. What `build_demo` reported is kept beside it.
"""

from __future__ import annotations

import os
import pickle
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from filelock import FileLock

from annotator.demo.workspace.build import DemoReport, build_demo

REPORT_FILE = "demo-report.pickle"  # written last: a folder without it was left half-built and is built again


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of this run that every xdist worker shares (one run's own, never an earlier run's)."""
    own = tmp_path_factory.getbasetemp()
    return own.parent if "PYTEST_XDIST_WORKER" in os.environ else own


def shared_demo(tmp_path_factory: pytest.TempPathFactory, trajectories: int, seed: int) -> tuple[Path, DemoReport]:
    """The demo of `trajectories` and `seed` built once for the run: its folder (not to be written) and report."""
    folder = run_folder(tmp_path_factory) / f"shared-demo-{trajectories}-{seed}"
    with FileLock(f"{folder}.lock"):
        if not (folder / REPORT_FILE).is_file():
            shutil.rmtree(folder, ignore_errors=True)
            report = build_demo(folder, trajectories=trajectories, seed=seed)
            (folder / REPORT_FILE).write_bytes(pickle.dumps(report))
    return folder, pickle.loads((folder / REPORT_FILE).read_bytes())


def demo_copy(tmp_path_factory: pytest.TempPathFactory, into: Path) -> DemoReport:
    """A writable copy in `into` (which must not exist) of the shared demo (12 trajectories, seed 0, as the app's
    `annotator demo` builds it) and its report, whose folder is `into`."""
    built, report = shared_demo(tmp_path_factory, trajectories=12, seed=0)
    shutil.copytree(built, into, ignore=shutil.ignore_patterns(REPORT_FILE))
    return replace(report, data_dir=into)
