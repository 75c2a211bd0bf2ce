"""The table of every user command, as data: what each is called, its menu, its default shortcut (and the single
keys that act as well), which method of which target runs it, and the views whose commands act only while they
show. ``actions`` builds the menus, toolbar and shortcut sheet from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from annotator.ui.i18n import QT_TRANSLATE_NOOP

CONTEXT = "Actions"
WINDOW = "window"
QUIT = "app.quit"  # ends its menu, after a separator, below the commands views add to it (exports)
# The views whose commands act only while the view shows: a key must never change what nobody is looking at (a
# verdict key typed in a blind study, the phone's Home key while annotating). Other targets act everywhere.
SCOPED_VIEWS: dict[str, str] = {
    "annotate": QT_TRANSLATE_NOOP("Views", "Annotate"),
    "review": QT_TRANSLATE_NOOP("Views", "Review"),
    "collect": QT_TRANSLATE_NOOP("Views", "Collect"),
    "stats": QT_TRANSLATE_NOOP("Views", "Statistics"),
    "models": QT_TRANSLATE_NOOP("Views", "Models"),
}


@dataclass(frozen=True)
class ActionSpec:
    id: str
    title: str  # source text, marked for lupdate with QT_TRANSLATE_NOOP("Actions", ...)
    menu: str  # a key of MENUS
    handler: str  # method name on the target, called with `args`
    target: str = WINDOW  # WINDOW or the id of a view (view_table.VIEW_ROWS)
    shortcut: str = ""  # portable text, e.g. "Ctrl+U"
    also: tuple[str, ...] = ()  # single keys that act as well (A / D beside the chords); not changeable
    tooltip: str = ""
    toolbar: bool = False
    args: tuple[Any, ...] = ()
    context: str = CONTEXT  # the translation context of title and tooltip
    checked_by: str = ""  # a Signal(bool) of the target saying whether the command is on: a checkable action


MENUS: dict[str, str] = {
    "file": QT_TRANSLATE_NOOP("Actions", "&File"),
    "view": QT_TRANSLATE_NOOP("Actions", "&View"),
    "go": QT_TRANSLATE_NOOP("Actions", "&Go"),
    "phone": QT_TRANSLATE_NOOP("Actions", "&Phone"),
    "annotate": QT_TRANSLATE_NOOP("Actions", "&Annotate"),
    "review": QT_TRANSLATE_NOOP("Actions", "&Review"),
    "help": QT_TRANSLATE_NOOP("Actions", "&Help"),
}

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("workspace.open", QT_TRANSLATE_NOOP("Actions", "&Open Workspace Folder…"), "file", "choose_workspace",
               shortcut="Ctrl+O", tooltip=QT_TRANSLATE_NOOP("Actions", "Open the data folder of another workspace")),
    ActionSpec("bundle.import", QT_TRANSLATE_NOOP("Actions", "&Import Bundle…"), "file", "import_bundle",
               target="bundles", shortcut="Ctrl+Shift+I",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Add the trajectories of a bundle (.zip or folder); "
                                                    "those already here are skipped")),
    ActionSpec("bundle.export", QT_TRANSLATE_NOOP("Actions", "&Export Bundle…"), "file", "export_bundle",
               target="bundles", shortcut="Ctrl+Shift+S",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Write every trajectory with its labels, history and "
                                                    "screenshots to a .zip")),
    ActionSpec("person.change", QT_TRANSLATE_NOOP("Actions", "&Who Is Working…"), "file", "change_person",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Your name and role: labels and reviews are saved under them")),
    ActionSpec("app.quit", QT_TRANSLATE_NOOP("Actions", "&Quit"), "file", "close", shortcut="Ctrl+Q",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Close the window; work in progress finishes first")),
    ActionSpec("browser.refresh", QT_TRANSLATE_NOOP("Actions", "&Refresh"), "view", "refresh", target="browser",
               shortcut="F5", tooltip=QT_TRANSLATE_NOOP("Actions", "Read the trajectories again from the database"),
               toolbar=True),
    ActionSpec("browser.find", QT_TRANSLATE_NOOP("Actions", "&Find Trajectories"), "go", "find_trajectories",
               shortcut="Ctrl+F",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Search instructions and labelled think / action text")),
    ActionSpec("browser.next_unlabelled", QT_TRANSLATE_NOOP("Actions", "Next &Unlabelled Trajectory"), "go",
               "open_next", target="browser", shortcut="Ctrl+U", args=("unlabelled",), toolbar=True,
               tooltip=QT_TRANSLATE_NOOP("Actions", "Open the next trajectory that nobody has labelled yet")),
    ActionSpec("browser.next_review", QT_TRANSLATE_NOOP("Actions", "Next Trajectory Needing &Review"), "go",
               "open_next", target="browser", shortcut="Ctrl+R", args=("review",), toolbar=True,
               tooltip=QT_TRANSLATE_NOOP("Actions", "Open the next annotated trajectory that waits for a reviewer")),
    # collect view ---------------------------------------------------------------------------------------------
    ActionSpec("collect.refresh_devices", QT_TRANSLATE_NOOP("Actions", "Refresh &Devices"), "phone",
               "refresh_devices", target="collect", shortcut="Ctrl+Shift+F5",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Look again for connected phones and virtual phones")),
    ActionSpec("collect.start", QT_TRANSLATE_NOOP("Actions", "&Start Recording"), "phone", "start_recording",
               target="collect", shortcut="Ctrl+Shift+Return",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Record a teleoperated trajectory for the chosen instruction")),
    ActionSpec("collect.stop", QT_TRANSLATE_NOOP("Actions", "S&top"), "phone", "stop", target="collect",
               shortcut="Ctrl+Shift+Backspace",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Stop the recording or the agent run; the steps so far are kept")),
    ActionSpec("collect.agent_run", QT_TRANSLATE_NOOP("Actions", "Run the &Agent"), "phone", "start_agent_run",
               target="collect", shortcut="Ctrl+Shift+G",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Let a model behind an OpenAI-compatible endpoint do the task")),
    ActionSpec("collect.back", QT_TRANSLATE_NOOP("Actions", "Phone &Back"), "phone", "press_button",
               target="collect", shortcut="Alt+Backspace", args=("Back",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "Press the phone's Back button (recorded as a step)")),
    ActionSpec("collect.home", QT_TRANSLATE_NOOP("Actions", "Phone &Home"), "phone", "press_button",
               target="collect", shortcut="Alt+Home", args=("Home",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "Press the phone's Home button (recorded as a step)")),
    # annotation view ------------------------------------------------------------------------------------------
    ActionSpec("annotate.accept_step", QT_TRANSLATE_NOOP("Actions", "Acce&pt Step and Go On"), "annotate",
               "accept_step", target="annotate.accept", shortcut="Space", toolbar=True,
               tooltip=QT_TRANSLATE_NOOP("Actions", "Mark the step correct, keep what was collected in its empty "
                                                    "stages, and open the next step that needs work")),
    ActionSpec("annotate.take_text", QT_TRANSLATE_NOOP("Actions", "Take the Offered Action &Text"), "annotate",
               "take_text", target="annotate.accept", shortcut="R",
               tooltip=QT_TRANSLATE_NOOP("Actions", "After the point moved to another element: use the action text "
                                                    "that names it")),
    ActionSpec("annotate.take_draft", QT_TRANSLATE_NOOP("Actions", "Take the Model's Dra&ft"), "annotate",
               "take_draft", target="annotate.drafts", shortcut="T",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Fill the step's empty stages from the model's draft "
                                                    "(shown dimmed)")),
    ActionSpec("annotate.draft", QT_TRANSLATE_NOOP("Actions", "Draft Labels with a &Model…"), "annotate",
               "draft_trajectory", target="annotate.drafts",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Ask a model for drafts of this trajectory's unlabelled steps")),
    ActionSpec("annotate.previous_step", QT_TRANSLATE_NOOP("Actions", "&Previous Step"), "annotate",
               "previous_step", target="annotate", shortcut="Ctrl+PgUp", also=("A",), toolbar=True,
               tooltip=QT_TRANSLATE_NOOP("Actions", "Show the step before this one; what you typed is saved first")),
    ActionSpec("annotate.next_step", QT_TRANSLATE_NOOP("Actions", "&Next Step"), "annotate", "next_step",
               target="annotate", shortcut="Ctrl+PgDown", also=("D",), toolbar=True,
               tooltip=QT_TRANSLATE_NOOP("Actions", "Show the step after this one; what you typed is saved first")),
    ActionSpec("annotate.next_trajectory", QT_TRANSLATE_NOOP("Actions", "Next &Trajectory"), "annotate",
               "next_trajectory", target="annotate.commands", shortcut="Ctrl+Shift+PgDown", also=("]",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "Open the next trajectory in your queue")),
    ActionSpec("annotate.previous_trajectory", QT_TRANSLATE_NOOP("Actions", "Pre&vious Trajectory"), "annotate",
               "previous_trajectory", target="annotate.commands", shortcut="Ctrl+Shift+PgUp", also=("[",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "Open again the trajectory you had open before this one")),
    ActionSpec("annotate.verdict_correct", QT_TRANSLATE_NOOP("Actions", "Step Is &Correct"), "annotate",
               "set_verdict", target="annotate.commands", shortcut="1", args=("correct",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "The collected step did the right thing")),
    ActionSpec("annotate.verdict_wrong", QT_TRANSLATE_NOOP("Actions", "Step Is &Wrong"), "annotate",
               "set_verdict", target="annotate.commands", shortcut="2", args=("wrong",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "The collected step did the wrong thing: correct its labels, or "
                                                    "insert a corrected step")),
    ActionSpec("annotate.verdict_redundant", QT_TRANSLATE_NOOP("Actions", "Step Is Re&dundant"), "annotate",
               "set_verdict", target="annotate.commands", shortcut="3", args=("redundant",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "The step was not needed for the task")),
    ActionSpec("annotate.stage_think", QT_TRANSLATE_NOOP("Actions", "Edit &Think"), "annotate", "show_stage",
               target="annotate", shortcut="F2", args=("think",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "Stage 1: current state, next action, goal")),
    ActionSpec("annotate.stage_action", QT_TRANSLATE_NOOP("Actions", "Edit &Action"), "annotate", "show_stage",
               target="annotate", shortcut="F3", args=("action_text",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "Stage 2: a clear low-level instruction")),
    ActionSpec("annotate.stage_tool_call", QT_TRANSLATE_NOOP("Actions", "Edit T&ool Call"), "annotate",
               "show_stage", target="annotate", shortcut="F4", args=("tool_call",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "Stage 3: the precise tool call, checked against the screenshot")),
    ActionSpec("annotate.keep_original", QT_TRANSLATE_NOOP("Actions", "&Keep the Original"), "annotate",
               "keep_original", target="annotate.commands", shortcut="Ctrl+K",
               tooltip=QT_TRANSLATE_NOOP("Actions",
                                         "Copy what was collected into the empty label fields of this step")),
    ActionSpec("annotate.undo", QT_TRANSLATE_NOOP("Actions", "&Undo"), "annotate", "undo", target="annotate.commands",
               shortcut="Ctrl+Z",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Take back the last saved change of this trajectory")),
    ActionSpec("annotate.redo", QT_TRANSLATE_NOOP("Actions", "&Redo"), "annotate", "redo", target="annotate.commands",
               shortcut="Ctrl+Shift+Z", tooltip=QT_TRANSLATE_NOOP("Actions", "Make the change you took back again")),
    ActionSpec("annotate.insert_step", QT_TRANSLATE_NOOP("Actions", "&Insert Corrected Step"), "annotate",
               "insert_corrected_step", target="annotate.commands", shortcut="Ctrl+I",
               tooltip=QT_TRANSLATE_NOOP("Actions", "After a wrong step, add the step that should have been taken")),
    ActionSpec("annotate.remove_step", QT_TRANSLATE_NOOP("Actions", "Re&move Labelled Step"), "annotate",
               "remove_step", target="annotate.commands", shortcut="Ctrl+Shift+Delete",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Leave a redundant step out of the labelled trajectory; "
                                                    "the collected record stays")),
    ActionSpec("annotate.take_box", QT_TRANSLATE_NOOP("Actions", "Take the Suggested &Box"), "annotate",
               "accept_suggested_box", target="annotate.boxes", shortcut="B",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Use the dashed blue box (the element under the point) as the "
                                                    "step's target box")),
    ActionSpec("annotate.no_box", QT_TRANSLATE_NOOP("Actions", "No Target Bo&x"), "annotate",
               "clear_target_box", target="annotate.boxes", shortcut="Shift+B",
               tooltip=QT_TRANSLATE_NOOP("Actions", "This step has no target box: clear it and the suggestion")),
    ActionSpec("annotate.privacy_tool", QT_TRANSLATE_NOOP("Actions", "Mark Privac&y Regions"), "annotate",
               "toggle", target="annotate.privacy", shortcut="P", toolbar=True, checked_by="tool_changed",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Drag on the screenshot over personal data (names, numbers, "
                                                    "faces): exports blur or black it out; P again ends it")),
    ActionSpec("annotate.privacy_delete", QT_TRANSLATE_NOOP("Actions", "Delete Privacy Re&gion"), "annotate",
               "delete_selected", target="annotate.privacy", shortcut="Delete",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Remove the privacy region you selected on the screenshot")),
    ActionSpec("annotate.privacy_clear", QT_TRANSLATE_NOOP("Actions", "C&lear Privacy Regions"), "annotate",
               "clear", target="annotate.privacy",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Remove every privacy region of this step")),
    ActionSpec("annotate.outcome_success", QT_TRANSLATE_NOOP("Actions", "Task &Completed"), "annotate",
               "set_outcome", target="annotate.commands", shortcut="Ctrl+Shift+Y", args=("success",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "The trajectory achieves its instruction")),
    ActionSpec("annotate.outcome_failure", QT_TRANSLATE_NOOP("Actions", "Task &Not Completed"), "annotate",
               "set_outcome", target="annotate.commands", shortcut="Ctrl+Shift+N", args=("failure",),
               tooltip=QT_TRANSLATE_NOOP("Actions", "The trajectory does not achieve its instruction")),
    ActionSpec("annotate.submit", QT_TRANSLATE_NOOP("Actions", "&Submit for Review"), "annotate",
               "submit_for_review", target="annotate.commands", shortcut="Ctrl+Return", toolbar=True,
               tooltip=QT_TRANSLATE_NOOP("Actions", "Mark this trajectory as annotated so that a reviewer sees it")),
    ActionSpec("annotate.complete_submit", QT_TRANSLATE_NOOP("Actions", "Task Completed, Su&bmit"), "annotate",
               "complete_and_submit", target="annotate.commands", shortcut="Ctrl+Shift+Return",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Set the outcome to completed and submit the trajectory for "
                                                    "review")),
    ActionSpec("annotate.history", QT_TRANSLATE_NOOP("Actions", "&History"), "annotate", "toggle_history",
               target="annotate.commands", shortcut="Ctrl+H",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Every change to this trajectory: who, when, old and new")),
    ActionSpec("annotate.zoom_in", QT_TRANSLATE_NOOP("Actions", "Zoom &In"), "annotate", "zoom_in",
               target="annotate.canvas", shortcut="Ctrl+=",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Enlarge the screenshot")),
    ActionSpec("annotate.zoom_out", QT_TRANSLATE_NOOP("Actions", "Zoom &Out"), "annotate", "zoom_out",
               target="annotate.canvas", shortcut="Ctrl+-",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Shrink the screenshot")),
    ActionSpec("annotate.zoom_fit", QT_TRANSLATE_NOOP("Actions", "&Fit Screenshot"), "annotate", "zoom_fit",
               target="annotate.canvas", shortcut="Ctrl+0",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Show the whole screenshot")),
    # review ------------------------------------------------------------------------------------------------
    ActionSpec("review.accept", QT_TRANSLATE_NOOP("Actions", "&Accept"), "review", "accept", target="review",
               shortcut="Ctrl+Shift+A", toolbar=True,
               tooltip=QT_TRANSLATE_NOOP("Actions", "Accept the trajectory in front of you")),
    ActionSpec("review.fix", QT_TRANSLATE_NOOP("Actions", "&Fix and Accept…"), "review", "fix", target="review",
               shortcut="Ctrl+Shift+E",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Open it for editing; your edits are revisions; accept when done")),
    ActionSpec("review.reject", QT_TRANSLATE_NOOP("Actions", "&Reject…"), "review", "reject", target="review",
               shortcut="Ctrl+Shift+X", toolbar=True,
               tooltip=QT_TRANSLATE_NOOP("Actions", "Send it back to the annotator with a comment")),
    # statistics --------------------------------------------------------------------------------------------
    ActionSpec("stats.refresh", QT_TRANSLATE_NOOP("Actions", "Refresh &Statistics"), "view", "refresh",
               target="stats", shortcut="Ctrl+Shift+F6",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Count everything in the workspace again")),
    ActionSpec("stats.export_png", QT_TRANSLATE_NOOP("Actions", "Export Charts as &PNG…"), "file", "export_png",
               target="stats",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Save each chart as a PNG file in a folder you choose")),
    ActionSpec("stats.export_csv", QT_TRANSLATE_NOOP("Actions", "Export Statistics as &CSV…"), "file",
               "export_csv", target="stats",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Save each table as a CSV file in a folder you choose")),
    # models -------------------------------------------------------------------------------------------------
    ActionSpec("models.refresh", QT_TRANSLATE_NOOP("Actions", "Refresh &Evaluations"), "view", "refresh",
               target="models", shortcut="Ctrl+Shift+F7",
               tooltip=QT_TRANSLATE_NOOP("Actions", "Read the evaluations of models again (F5 in the Models view)")),
    ActionSpec("help.shortcuts", QT_TRANSLATE_NOOP("Actions", "&Keyboard Shortcuts"), "help", "show_shortcuts",
               shortcut="F1", tooltip=QT_TRANSLATE_NOOP("Actions", "List every command and change its shortcut")),
    ActionSpec("help.about", QT_TRANSLATE_NOOP("Actions", "&About Mobile Annotator"), "help", "show_about",
               tooltip=QT_TRANSLATE_NOOP("Actions", "The version, and what this program is for")),
)  # fmt: skip


# What an Annotate command needs besides its view showing (ActionRegistry.set_conditions): the window says which
# conditions hold, and a command whose needs are not met is greyed instead of answering in the status bar only.
WORKSPACE, TRAJECTORY, WRITABLE = "workspace", "trajectory", "writable"
_QUEUE = frozenset({"annotate.next_trajectory", "annotate.previous_trajectory"})
_VIEWING = frozenset(
    {
        "annotate.previous_step",
        "annotate.next_step",
        "annotate.history",
        "annotate.zoom_in",
        "annotate.zoom_out",
        "annotate.zoom_fit",
        "annotate.stage_think",
        "annotate.stage_action",
        "annotate.stage_tool_call",
    }
)


def needs_of(spec: ActionSpec) -> frozenset[str]:
    """The conditions a command needs: a workspace for the queue, an open trajectory to look at it, and a
    writable workspace to change its labels."""
    if not spec.id.startswith("annotate."):
        return frozenset()
    if spec.id in _QUEUE:
        return frozenset({WORKSPACE})
    if spec.id in _VIEWING:
        return frozenset({WORKSPACE, TRAJECTORY})
    return frozenset({WORKSPACE, TRAJECTORY, WRITABLE})
