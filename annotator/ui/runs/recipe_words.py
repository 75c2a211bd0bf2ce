"""The shipped recipes' descriptions and paper lines in the person's language. Recipes are YAML written in English;
these are the source texts of their translations. A recipe not listed (a person's own) shows its own words, and
`tests/ui/test_screen_details.py` holds every shipped recipe to this list, so none is left out when one is added."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from annotator.ui.i18n import QT_TRANSLATE_NOOP

CONTEXT = "Recipes"
WORDS = frozenset(
    {
        QT_TRANSLATE_NOOP("Recipes", "GUI-R1 (0.2 format + 0.8 accuracy, 9 epochs)"),
        QT_TRANSLATE_NOOP("Recipes", "InfiGUI-R1 stage 1 (SFT, lr 2e-6, global batch 32, warm-up 0.1)"),
        QT_TRANSLATE_NOOP(
            "Recipes", "InfiGUI-R1 stage 2 (RLOO, 16 rollouts, lr 1e-6, format-gated accuracy, sub-goal term)"
        ),
        QT_TRANSLATE_NOOP("Recipes", "Mobile-R1 stage 1 (SFT, LoRA, 2 epochs, lr 1e-4, batch 1 x accumulation 8)"),
        QT_TRANSLATE_NOOP("Recipes", "Mobile-R1 stage 2 (action-level GRPO, 8 rollouts, lr 1e-7, R_Act + R_Fmt)"),
        QT_TRANSLATE_NOOP(
            "Recipes", "Mobile-R1 stage 3 (task-level online GRPO on phones, 4 rollouts, 14 steps, lr 1e-6)"
        ),
        QT_TRANSLATE_NOOP(
            "Recipes", "Tiny SFT on the CPU (full tuning, 40 epochs); memorises a compact export of a few dozen steps"
        ),
        QT_TRANSLATE_NOOP("Recipes", "Tiny action-level GRPO on the CPU (full tuning, 4 answers a step, 32 steps)"),
        QT_TRANSLATE_NOOP(
            "Recipes",
            "Tiny task-level GRPO on two virtual phones (full tuning, 2 steps, 2 rollouts of at most 3 actions)",
        ),
        QT_TRANSLATE_NOOP(
            "Recipes",
            "UI-AGILE (continuous grounding + simple thinking, cropping-based resampling, 8 generations, lr 1e-6)",
        ),
        QT_TRANSLATE_NOOP("Recipes", "UI-R1 (R_T + R_C + R_F, 8 generations, 8 epochs, lr 9.98e-7 to 0)"),
        QT_TRANSLATE_NOOP("Recipes", "GUI-R1 3.2 and 4.1"),
        QT_TRANSLATE_NOOP("Recipes", "InfiGUI-R1 3.1 and 4.1"),
        QT_TRANSLATE_NOOP("Recipes", "InfiGUI-R1 3.2.1, 3.2.2 and 4.1"),
        QT_TRANSLATE_NOOP("Recipes", "Mobile-R1 4.2.2, 5.1.3 and Appendix E"),
        QT_TRANSLATE_NOOP("Recipes", "Mobile-R1 4.4, 5.1.3 and Appendix E"),
        QT_TRANSLATE_NOOP("Recipes", "Mobile-R1 5.1.3 and Appendix E"),
        QT_TRANSLATE_NOOP("Recipes", "UI-AGILE 3.1-3.3, 4.1 and Table 1"),
        QT_TRANSLATE_NOOP("Recipes", "UI-R1 eq. 2 and Appendix A.1"),
        QT_TRANSLATE_NOOP("Recipes", "none (a smoke run)"),
        QT_TRANSLATE_NOOP("Recipes", "none (the demo's and the learning tests' model)"),
    }
)


def recipe_words(text: str) -> str:
    """A shipped recipe's description or paper line in the person's language; any other text as it is."""
    return QCoreApplication.translate(CONTEXT, text) if text in WORDS else text
