"""One annotator in a process of its own, for test_two_annotators.py:
``python -m tests.faults.annotate_at_once DATA URL TRAJECTORY PERSON EDITS STEP,STEP... SHARED_STEP MEETING``.

It saves each of its own steps EDITS times, each save based on the version it read (``annotation.Editor``), then
meets the other annotator (files in MEETING), reads the shared step as the other does and saves it from that base.
It prints one JSON line: how many of its saves landed, and whether the shared save landed or was refused as stale
(with theirs).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from annotator.services.annotation import Editor, StaleLabelError
from annotator.storage.workspace import Workspace

MEETING_WAIT_S = 60.0


def meet(folder: Path, person: str, point: str) -> None:
    """Wait here until both annotators have reached `point`."""
    (folder / f"{point}-{person}").touch()
    deadline = time.monotonic() + MEETING_WAIT_S
    while len(list(folder.glob(f"{point}-*"))) < 2:
        if time.monotonic() > deadline:
            raise SystemExit(f"the other annotator never reached {point}")
        time.sleep(0.002)


def annotate(editor: Editor, steps: list[int], edits: int, shared: int, meeting: Path) -> dict[str, object]:
    person = editor.person
    editor.load()
    meet(meeting, person, "start")
    saved = 0
    for n in range(edits):
        for step_id in steps:
            editor.change(step_id, {"action_text": f"{person} {n}"})
            saved += 1
    meet(meeting, person, "edited")
    editor.load()  # both read the shared step at the same version
    meet(meeting, person, "loaded")
    try:
        editor.change(shared, {"think": f"{person} 的想法"})
    except StaleLabelError as stale:
        return {"saved": saved, "shared": "stale", "theirs": stale.theirs, "mine": stale.mine}
    return {"saved": saved, "shared": "saved"}


if __name__ == "__main__":
    data, url, trajectory, person, edits, steps, shared, meeting = sys.argv[1:]
    with Workspace.open(Path(data), url) as workspace:
        editor = Editor(workspace, int(trajectory), person)
        report = annotate(editor, [int(s) for s in steps.split(",")], int(edits), int(shared), Path(meeting))
    print(json.dumps(report, ensure_ascii=False))
