"""The Runs view: launch training recipes on an export, follow the workspace's runs, evaluate their checkpoints."""

from annotator.ui.runs.view import RunsView, choose_in_models

__all__ = ["RunsView", "choose_in_models"]
