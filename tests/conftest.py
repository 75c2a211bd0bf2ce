"""Shared fixtures: a fresh workspace per test, a small labelled dataset, a virtual phone over real adb."""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.phone import VirtualPhone
from annotator.device.adb import adb_client
from annotator.device.android import AndroidDevice
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from tests.marked_modules import passed_over
from tests.postgres import emptied_postgres_url, needs_postgres, postgres_databases, postgres_url, shared_postgres_url
from tests.team_database import team
from tests.workspaces import NewWorkspace, migrated_template, open_new

# fixtures for all
__all__ = ["emptied_postgres_url", "postgres_databases", "postgres_url", "shared_postgres_url", "team"]

# Qt tests run without a display; a developer may override this to watch them.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Under xdist each worker is one process per core: torch's own thread per core in every worker would oversubscribe
# the cores and spin against each other (set before any test imports torch; the training subprocesses inherit it).
if "PYTEST_XDIST_WORKER" in os.environ:
    os.environ.setdefault("OMP_NUM_THREADS", "1")

# The folders whose tests of a `workspace` run on SQLite and on PostgreSQL (issue 19: both are first-class).
BOTH_BACKENDS = {"storage", "services"}


def pytest_configure(config: pytest.Config) -> None:
    keep_compiled_modules(config.rootpath / ".pytest_cache" / "pycache")
    print_stacks_when_stopped(config)


def print_stacks_when_stopped(config: pytest.Config) -> None:
    """A run stopped from outside (CI's own time limit sends SIGTERM) prints first what each process that runs
    tests was doing: a worker, or a run without xdist, prints every thread's stack; xdist's controller, which only
    waits for its workers, passes the signal on to them before it goes."""
    if "PYTEST_XDIST_WORKER" in os.environ or config.getoption("dist", "no") == "no":
        # A copy of stderr as it is now: during a test, capturing puts a temporary file on fd 2.
        terminal = os.dup(sys.__stderr__.fileno()) if sys.__stderr__ else 2
        faulthandler.register(signal.SIGTERM, file=terminal, all_threads=True, chain=True)
        return

    def stop_workers_then_self(signum: int, _frame: object) -> None:
        import psutil

        for worker in psutil.Process().children():  # one at a time: stacks printed at once would interleave
            worker.send_signal(signum)
            psutil.wait_procs([worker], timeout=10)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    signal.signal(signal.SIGTERM, stop_workers_then_self)


def keep_compiled_modules(cache: Path) -> None:
    """Where PYTHONDONTWRITEBYTECODE is set (some shells and sandboxes set it), every test process and every command a
    test starts would compile the project's modules, and pytest rewrite the test modules' asserts, again each time:
    ~10 s of collection per worker. Compiled modules go to `cache` instead (PYTHONPYCACHEPREFIX), never beside the
    sources, for this process and those it starts; a prefix of the developer's own is kept."""
    if not sys.dont_write_bytecode:
        return
    sys.dont_write_bytecode = False
    sys.pycache_prefix = sys.pycache_prefix or str(cache)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A test module that `-m` leaves out whole is not imported (tests/marked_modules.py); None lets pytest decide."""
    expression = config.getoption("markexpr")
    if expression and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        return passed_over(collection_path, expression) or None
    return None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules with training tests run first, then those with other slow tests, then the rest, each module's tests
    together and in their order: under xdist the long tests start early and the quick ones even out the workers'
    ends, instead of a training test started last keeping one worker busy for minutes after the other is done."""
    rank: dict[Path, int] = {}
    for item in items:
        own = 0 if item.get_closest_marker("train") else 1 if item.get_closest_marker("slow") else 2
        rank[item.path] = min(rank.get(item.path, 2), own)
    items.sort(key=lambda item: rank[item.path])


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A storage or service test of a workspace runs once per backend, unless it is marked sqlite_only."""
    folder = metafunc.definition.path.parent.name
    if (
        "backend" in metafunc.fixturenames
        and folder in BOTH_BACKENDS
        and not metafunc.definition.get_closest_marker("sqlite_only")
    ):
        backends = ["sqlite", pytest.param("postgresql", marks=needs_postgres)]
        metafunc.parametrize("backend", backends, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database a test's workspace is on: sqlite, unless parametrized (above)."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new workspace's SQLite file, migrated once per test process (tmp_path_factory is per xdist worker)."""
    return migrated_template(tmp_path_factory.mktemp("migrated") / "data")


@pytest.fixture
def new_workspace(migrated_database: Path) -> Iterator[NewWorkspace]:
    """Opens a new SQLite workspace in an empty folder, as Workspace.open would, from a copy of the migrated
    database (tests/workspaces.py); what the test leaves open is closed after it."""
    opened: list[Workspace] = []

    def open_in(data_dir: Path) -> Workspace:
        opened.append(open_new(data_dir, migrated_database))
        return opened[-1]

    yield open_in
    for each in opened:
        each.close()


@pytest.fixture
def workspace(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest, new_workspace: NewWorkspace
) -> Iterator[Workspace]:
    """A new workspace: its SQLite file in the data folder (a copy of the migrated one), or this process's emptied
    PostgreSQL database."""
    if backend == "postgresql":
        opened = Workspace.open(tmp_path / "data", request.getfixturevalue("emptied_postgres_url"))
    else:
        opened = new_workspace(tmp_path / "data")
    yield opened
    opened.close()


@pytest.fixture
def populated(workspace: Workspace) -> Workspace:
    add_trajectory(workspace, "淘宝", "打开淘宝，搜索 iPhone 16 Pro Max 并加入购物车", 3, seed=1)
    add_trajectory(workspace, "抖音", "打开抖音，关注第一个视频的作者", 2, seed=2)
    add_trajectory(workspace, "淘宝", "打开淘宝，查看我关注的店铺", 2, seed=3, label=False)
    return workspace


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone(serial="virtual-1")


@pytest.fixture
def server(phone: VirtualPhone) -> Iterator[VirtualAdbServer]:
    """The phone on a loopback adb server of its own (a free port)."""
    with VirtualAdbServer([phone]) as running:
        yield running


@pytest.fixture
def device(server: VirtualAdbServer, phone: VirtualPhone) -> AndroidDevice:
    """The device layer's view of the phone, through the real adbutils client."""
    return AndroidDevice(adb_client(port=server.port, timeout_s=10), phone.serial)


@pytest.fixture(scope="session")
def exports(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> dict[str, Path]:
    """An sft, a grpo-action and a grpo-task export in the trl format of two accepted virtual-phone trajectories,
    and grpo-action exports in InfiGUI-R1's and UI-R1's prompt variants, built once for the training scripts' and the
    launcher's tests."""
    from annotator.domain.model_space import default_export_space
    from annotator.domain.prompts import PromptVariant
    from tests.evaluate.test_offline import accepted
    from trainer_bridge.export.run import ExportOptions, export

    root = tmp_path_factory.mktemp("training-exports")
    with open_new(root / "data", migrated_database) as workspace:
        for uid in ("video-pause", "settings-wifi-off"):
            accepted(workspace, uid)
        made = {}
        for stage in ("sft", "grpo-action", "grpo-task"):
            made[stage] = root / stage
            export(workspace, ExportOptions(stage, "trl", made[stage], default_export_space()))
        for variant in (PromptVariant.INFIGUI_R1, PromptVariant.UI_R1):
            out = made[f"grpo-action {variant}"] = root / f"grpo-action-{variant}"
            export(
                workspace,
                ExportOptions(
                    "grpo-action", "trl", out, default_export_space(), history_images=1, prompt_variant=variant
                ),
            )
    return made
