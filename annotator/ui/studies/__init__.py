"""Blind human studies of the LLM judge: rating, disagreements, the agreement report, adjudication."""

from annotator.ui.studies.view import StudiesView

__all__ = ["StudiesView"]
