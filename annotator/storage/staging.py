"""Folders an export is built in before it is renamed to its final name, and the leftovers of killed exports.

An export (a bundle, a training dataset) is written into a hidden folder beside its target and renamed into place
at the end, so a crash never leaves a half export under the name asked for. The folder's name says which process
on which host builds it; the next export to the same place removes the leftovers of processes of this host that
are gone (a killed export's copy of every screenshot can be gigabytes). Another host's leftovers stay: whether
its process lives cannot be seen from here.
"""

from __future__ import annotations

import glob
import hashlib
import logging
import os
import shutil
import socket
import tempfile
from pathlib import Path

import psutil

log = logging.getLogger(__name__)


def _host_tag() -> str:
    return hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]


def _prefix(out: Path) -> str:
    return f".{out.name}.partial-"


def staging_folder(out: Path) -> Path:
    """A new, empty hidden folder beside `out` to build it in (leftovers of killed exports to `out` removed)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_abandoned(out)
    return Path(tempfile.mkdtemp(prefix=f"{_prefix(out)}{os.getpid()}-{_host_tag()}-", dir=out.parent))


def remove_abandoned(out: Path) -> list[Path]:
    """Remove what exports to `out` left when they were killed (their process on this host is gone); those
    removed."""
    removed = []
    prefix, tag = _prefix(out), _host_tag()
    for leftover in sorted(out.parent.glob(f"{glob.escape(_prefix(out))}*")):
        pid, _, rest = leftover.name.removeprefix(prefix).partition("-")
        if not pid.isdigit() or not rest.startswith(f"{tag}-") or psutil.pid_exists(int(pid)):
            continue
        if leftover.is_dir():
            shutil.rmtree(leftover, ignore_errors=True)
        else:
            leftover.unlink(missing_ok=True)
        log.info("removed %s, left by an export that was killed", leftover)
        removed.append(leftover)
    return removed
