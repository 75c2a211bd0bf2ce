"""The Models view: evaluations of models on the workspace's held-out trajectories."""

from annotator.ui.models.view import ModelsView

__all__ = ["ModelsView"]
