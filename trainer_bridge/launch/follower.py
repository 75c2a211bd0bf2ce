"""The background follower of a detached run (`train --detach`): `python -m trainer_bridge.launch.follower RUN_ID`
with the workspace in ANNOTATOR_DATA_DIR / ANNOTATOR_DB_URL. It takes the run over, copies its events as they come
and records how it ended, so a run nobody watches still ends right in the database."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from annotator.storage import training_runs
from annotator.storage.workspace import Workspace
from trainer_bridge.launch.run import follow


def main(argv: Sequence[str] | None = None) -> int:
    run_id = int((sys.argv[1:] if argv is None else argv)[0])
    with Workspace.open() as workspace:
        training_runs.take_over(workspace.database, run_id)
        follow(workspace.database, run_id)
    return 0


if __name__ == "__main__":
    sys.exit(main())
