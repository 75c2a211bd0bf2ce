"""Run an `annotator` command at a given moment, so that two processes run it at once:
``python -m tests.concurrently AT ARG...`` (AT: seconds since the epoch), everything it needs imported before."""

from __future__ import annotations

import sys
import time

import annotator.cli.draft
import annotator.services.bundle
import annotator.services.instructions  # noqa: F401  (imported before the moment, not during the race)
from annotator.cli.root import cli

if __name__ == "__main__":
    time.sleep(max(0.0, float(sys.argv[1]) - time.time()))
    cli.main(sys.argv[2:], prog_name="annotator")
