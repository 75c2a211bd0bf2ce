"""The judge view: run the LLM judge (Mobile-R1 0-4 rubric) over the workspace's trajectories and list its judges."""

from annotator.ui.judge.view import JudgeView

__all__ = ["JudgeView"]
