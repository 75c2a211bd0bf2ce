"""The window's views, in the order of the work (Ctrl+1 …), each made the first time it is shown or asked for.

Making a view imports its modules and builds its widgets: the Collect view brings the phone layer and adbutils,
Annotate its canvas and editors, together about half a second of a start that shows the trajectory list. The
window therefore makes the list (and the view it showed last) at start and the others when a person first opens
one; `window.view(view_id)` (or the attribute of that name) makes it on demand. A row says how to make the view
and what the window connects to it; everything else a view gets (the workspace, its commands, the status bar)
the window gives every view alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar, cast

from PySide6.QtWidgets import QWidget

from annotator.ui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from annotator.ui.main_window import MainWindow

V = TypeVar("V", bound=QWidget)


@dataclass(frozen=True)
class ViewRow:
    view_id: str
    title: str  # source text in the "Views" translation context
    make: Callable[[MainWindow], QWidget]  # imports the view's module and builds it
    connect: Callable[[MainWindow, QWidget], None] = lambda window, view: None  # once it is registered


class ViewAttribute(Generic[V]):
    """`window.annotate` and the like: the view of that id, made if it was not yet."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.view_id = name

    def __get__(self, window: MainWindow, owner: type | None = None) -> V:
        return cast(V, window.view(self.view_id))


def _collect(window: MainWindow) -> QWidget:
    from annotator.ui.collect import CollectView

    return CollectView(window.jobs, window, hub=window.hub)


def _browser(window: MainWindow) -> QWidget:
    from annotator.ui.browser import BrowserView

    view = BrowserView(window.jobs, window, hub=window.hub)
    view.open_requested.connect(window.open_trajectory)
    view.summary_changed.connect(window.counts.browser_counts)
    return view


def _annotate(window: MainWindow) -> QWidget:
    from annotator.ui.annotate import AnnotationView

    return AnnotationView(window.jobs, window, hub=window.hub)


def _bind_annotation(window: MainWindow, view: QWidget) -> None:
    from annotator.ui.annotate import AnnotationView
    from annotator.ui.annotation_actions import bind_annotation

    bind_annotation(window.menu_actions, cast(AnnotationView, view))


def _review(window: MainWindow) -> QWidget:
    from annotator.ui.review import ReviewView

    view = ReviewView(window.jobs, window, hub=window.hub)
    view.edit_requested.connect(window.open_trajectory)
    return view


def _stats(window: MainWindow) -> QWidget:
    from annotator.ui.stats import StatsView

    return StatsView(window.jobs, window)


def _judge(window: MainWindow) -> QWidget:
    from annotator.ui.judge import JudgeView

    return JudgeView(window.jobs, window, hub=window.hub)


def _studies(window: MainWindow) -> QWidget:
    from annotator.ui.studies import StudiesView

    view = StudiesView(window.jobs, window, hub=window.hub)
    view.open_requested.connect(window.open_trajectory)
    return view


def _models(window: MainWindow) -> QWidget:
    from annotator.ui.models import ModelsView

    view = ModelsView(window.jobs, window)
    view.open_requested.connect(window.open_trajectory)
    return view


def _runs(window: MainWindow) -> QWidget:
    from annotator.ui.runs import RunsView

    view = RunsView(window.jobs, window)
    view.evaluation_opened.connect(window.open_evaluation)
    return view


VIEW_ROWS: tuple[ViewRow, ...] = (
    ViewRow("collect", QT_TRANSLATE_NOOP("Views", "Collect"), _collect),
    ViewRow("browser", QT_TRANSLATE_NOOP("Views", "Trajectories"), _browser),
    ViewRow("annotate", QT_TRANSLATE_NOOP("Views", "Annotate"), _annotate, _bind_annotation),
    ViewRow("review", QT_TRANSLATE_NOOP("Views", "Review"), _review),
    ViewRow("stats", QT_TRANSLATE_NOOP("Views", "Statistics"), _stats),
    ViewRow("judge", QT_TRANSLATE_NOOP("Views", "Judge"), _judge),
    ViewRow("studies", QT_TRANSLATE_NOOP("Views", "Studies"), _studies),
    ViewRow("models", QT_TRANSLATE_NOOP("Views", "Models"), _models),
    ViewRow("runs", QT_TRANSLATE_NOOP("Views", "Runs"), _runs),
)
HOME = "browser"  # made at start whatever showed last: Find, the status bar's counts and "open next" use it
