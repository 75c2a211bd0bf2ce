"""What each figure of the Models view means and which paper names it so: the names, the list's short headers,
the tooltips that explain them and the legend line under the list.

The names are the papers' (annotator.domain.evaluation, trainer_bridge.cli.eval_text): Mobile-R1's Acc., Task
Succ., Tail Succ. and R_Act; the AndroidControl / GUI-Odyssey protocol's TM, GR and SR (OS-Atlas's 14% rule; the
EM / SR that UI-R1 and GUI-R1 publish).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QWidget

from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating

CONTEXT = "ModelsView"
NO_VALUE = "—"

# Every figure the view may show: key of the summary -> (name, what it means). Offline ones first.
METRICS: dict[str, tuple[str, str]] = {
    "step_accuracy": (QT_TRANSLATE_NOOP("ModelsView", "Step accuracy"),
                      QT_TRANSLATE_NOOP("ModelsView", "Steps whose reply has the format and the right action "
                                                      "(Mobile-R1 Acc.)")),
    "task_success": (QT_TRANSLATE_NOOP("ModelsView", "Task success"),
                     QT_TRANSLATE_NOOP("ModelsView", "Trajectories whose every step is right (Mobile-R1 Task "
                                                     "Succ.)")),
    "type_match": (QT_TRANSLATE_NOOP("ModelsView", "Type match (TM)"),
                   QT_TRANSLATE_NOOP("ModelsView", "The predicted action type is the labelled one")),
    "exact_match": (QT_TRANSLATE_NOOP("ModelsView", "Exact match (R_Act)"),
                    QT_TRANSLATE_NOOP("ModelsView", "Type and every argument right; a point inside the target box "
                                                    "(Mobile-R1's R_Act)")),
    "grounding_accuracy": (QT_TRANSLATE_NOOP("ModelsView", "Grounding (GR)"),
                           QT_TRANSLATE_NOOP("ModelsView", "Of the steps with a labelled point: the predicted point "
                                                           "lies within 14% of the screen width of it")),
    "step_success_rate": (QT_TRANSLATE_NOOP("ModelsView", "Step success rate (SR)"),
                          QT_TRANSLATE_NOOP("ModelsView", "Type and every argument right, a point within 14% of the "
                                                          "screen width of the labelled one (AndroidControl's step "
                                                          "success: the EM / SR of UI-R1 and GUI-R1)")),
    "tail_success": (QT_TRANSLATE_NOOP("ModelsView", "Tail success"),
                     QT_TRANSLATE_NOOP("ModelsView", "Runs whose task is done at the end, whatever happened on the "
                                                     "way (Mobile-R1 Tail Succ.)")),
    "claimed_and_done": (QT_TRANSLATE_NOOP("ModelsView", "Done and claimed"),
                         QT_TRANSLATE_NOOP("ModelsView", "Runs whose task is done at the end and in which the model "
                                                         "said it had finished the task")),
    "claimed_success": (QT_TRANSLATE_NOOP("ModelsView", "Claimed success"),
                        QT_TRANSLATE_NOOP("ModelsView", "Runs in which the model said it had finished the task")),
}  # fmt: skip
SHORT = {  # the list's narrow column headers
    "step_accuracy": QT_TRANSLATE_NOOP("ModelsView", "Step acc."),
    "task_success": QT_TRANSLATE_NOOP("ModelsView", "Task succ."),
    "type_match": QT_TRANSLATE_NOOP("ModelsView", "TM"),
    "exact_match": QT_TRANSLATE_NOOP("ModelsView", "R_Act"),
    "grounding_accuracy": QT_TRANSLATE_NOOP("ModelsView", "GR"),
    "step_success_rate": QT_TRANSLATE_NOOP("ModelsView", "SR"),
    "tail_success": QT_TRANSLATE_NOOP("ModelsView", "Tail succ."),
    "claimed_and_done": QT_TRANSLATE_NOOP("ModelsView", "Done+claimed"),
}
# Which paper or protocol names a figure so, where its description above does not say.
SOURCES = {
    "type_match": QT_TRANSLATE_NOOP("ModelsView", "TM is the type match of the AndroidControl and GUI-Odyssey "
                                                  "protocol, scored by UI-R1's action-type rule (R_T)."),
    "exact_match": QT_TRANSLATE_NOOP("ModelsView", "trainer-bridge eval's tables head it EM; the EM of UI-R1 and "
                                                   "GUI-R1 is SR here."),
    "grounding_accuracy": QT_TRANSLATE_NOOP("ModelsView", "GR is the AndroidControl protocol's grounding figure, "
                                                          "by OS-Atlas's 14% rule, as UI-AGILE and GUI-R1 report "
                                                          "it."),
    "claimed_and_done": QT_TRANSLATE_NOOP("ModelsView", "This project's stricter online figure: Mobile-R1's Task "
                                                        "Succ. (every step right) is an offline one."),
    "claimed_success": QT_TRANSLATE_NOOP("ModelsView", "This project's figure: what the model claimed, done or "
                                                       "not."),
}  # fmt: skip
PASS_AT_K = QT_TRANSLATE_NOOP(
    "ModelsView",
    "pass@k: the chance that at least one of k answers sampled at the "
    "evaluation's temperature is right (step accuracy), by the unbiased "
    "estimator of Chen et al. (2021); Mobile-R1 reports it at temperature "
    "0.7.",
)
FORMAT_ERRORS = QT_TRANSLATE_NOOP(
    "ModelsView", "Replies not in the answer format (R_Fmt = 0): nothing in them can be right."
)
LEGEND = QT_TRANSLATE_NOOP(
    "ModelsView",
    "Step acc.: format and action right (Mobile-R1 Acc.) · TM: type match · "
    "R_Act: exact match, the point in the target box (Mobile-R1) · GR: "
    "grounding, the point within 14% of the screen width (OS-Atlas) · SR: step "
    "success, type, arguments and point right (AndroidControl; the EM / SR of "
    "UI-R1 and GUI-R1) · Task succ.: every step right · Tail succ.: done in "
    "the end (Mobile-R1) · —: not measured. Point at a column header for more.",
)


def translate(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source) if source else ""


def metric_name(key: str) -> str:
    return translate(METRICS[key][0]) if key in METRICS else key


def metric_tip(key: str) -> str:
    return translate(METRICS[key][1]) if key in METRICS else ""


def explain(key: str) -> str:
    """A figure's tooltip: its name, what it counts and which paper names it so."""
    if key not in METRICS:
        return key
    source = translate(SOURCES.get(key, ""))
    return f"{metric_name(key)}: {metric_tip(key)}" + (f"\n{source}" if source else "")


class Legend(Retranslating, QLabel):
    """One wrapped line under the list: what each short header means (the tooltips say more)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("models-legend")
        self.setWordWrap(True)
        self.setStyleSheet("color: #555")  # a footnote: quieter than the figures
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.retranslate()

    def retranslate(self) -> None:
        self.setText(translate(LEGEND))
