"""The annotation view: a trajectory's screenshots, step strip, stage editors and history."""

from annotator.ui.annotate.view import AnnotationView

__all__ = ["AnnotationView"]
