"""One training run: what it is, its loss and reward curves, the latest completions with their rewards, the log's
tail, and what can be done with it: cancel a live run, resume an ended one that has a checkpoint, evaluate its
model (`trainer-bridge eval --model-path`) and open that evaluation in the Models view: as soon as the command has
begun it (the view finds it by the command's process, `evaluation_found`), else when the command ends.

Built when the first run is shown (its charts load matplotlib). The commands run as subprocesses of the bridge's
command line, so their outcome and refusals read as on a terminal.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from annotator.storage.workspace import Workspace
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.models.tables import FiguresTable, heading
from annotator.ui.runs.charts import CurvesChart
from annotator.ui.runs.cli_process import CliProcess
from annotator.ui.runs.launch_panel import ERROR_STYLE, STARTED, training
from annotator.ui.runs.table import figure, status_name, steps

if TYPE_CHECKING:
    from annotator.services.training import RunDetail

CURVES, COMPLETIONS, LOG = range(3)
EVALUATION = re.compile(r'"evaluation_id": (\d+)')


class RunPage(Retranslating, QWidget):
    changed = Signal()  # a command ended: the runs are read again
    run_started = Signal(int)  # a resumed run's new id
    open_evaluation = Signal(int)  # show this evaluation in the Models view
    command_started = Signal()  # the view reads again while it runs (an evaluation is looked for by its process)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("runs-page")
        self.workspace: Workspace | None = None
        self.detail: RunDetail | None = None
        self.command: CliProcess | None = None
        self.evaluations: dict[int, int] = {}  # run id -> the evaluation of its model made from this view
        self.evaluating: int | None = None  # the run whose model the command under way evaluates
        self.opened: int | None = None  # the evaluation under way, once shown in the Models view
        self.title = heading(self)
        self.about = QLabel(self)
        self.about.setWordWrap(True)
        self.about.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = {name: QPushButton(self) for name in ("cancel", "resume", "evaluate", "open")}
        for name, button in self.buttons.items():
            button.setObjectName(f"runs-{name}")
        self.buttons["cancel"].clicked.connect(self.cancel)
        self.buttons["resume"].clicked.connect(self.resume)
        self.buttons["evaluate"].clicked.connect(self.evaluate)
        self.buttons["open"].clicked.connect(self._open_evaluation)
        self.outcome = QLabel(self)
        self.outcome.setObjectName("runs-outcome")
        self.outcome.setWordWrap(True)
        self.outcome.setTextFormat(Qt.TextFormat.RichText)  # what it says is escaped; a report is a link
        self.outcome.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.outcome.setOpenExternalLinks(True)
        self.chart = CurvesChart(self)
        self.completions = FiguresTable("completions", self)
        self.completions.setObjectName("runs-completions")
        self.log = QPlainTextEdit(self)
        self.log.setObjectName("runs-log")
        self.log.setReadOnly(True)
        self.log.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.log.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.tabs = QTabWidget(self)
        for page in (self.chart, self.completions, self.log):
            self.tabs.addTab(page, "")
        self._lay_out()
        self.retranslate()

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        for button in self.buttons.values():
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.about)
        layout.addLayout(buttons)
        layout.addWidget(self.outcome)
        layout.addWidget(self.tabs, 1)

    # showing --------------------------------------------------------------------------------------------------------

    def show_detail(self, detail: RunDetail) -> None:
        new_run = self.detail is None or self.detail.run.id != detail.run.id
        self.detail = detail
        run = detail.run
        self.title.setText(html.escape(fill(self.tr("Run %1 · %2 · %3"), run.id, run.recipe, status_name(run.status))))
        self.about.setText(self._about(detail))
        self.chart.show_curves(detail.loss, detail.reward)
        self._show_completions(detail)
        if self.log.toPlainText() != detail.log_tail:
            at_end = self.log.verticalScrollBar().value() == self.log.verticalScrollBar().maximum()
            self.log.setPlainText(detail.log_tail)
            if at_end or new_run:  # following the log unless the person scrolled up to read
                self.log.verticalScrollBar().setValue(self.log.verticalScrollBar().maximum())
        if new_run and not self.busy():
            self.outcome.clear()
        self._show_tab_titles()
        self._enable()

    def _about(self, detail: RunDetail) -> str:
        run = detail.run
        lines = [
            fill(self.tr("Step %1, loss %2, reward %3"), steps(run), figure(run.last_loss), figure(run.last_reward)),
            fill(self.tr("Export: %1"), run.data_dir),
            fill(self.tr("Output: %1"), run.output_dir),
            fill(self.tr("Model: %1"), run.model or self.tr("the recipe's (tiny, built offline)")),
        ]
        if run.resumed_from:
            lines.append(fill(self.tr("Resumes run %1"), run.resumed_from))
        if run.message:
            lines.append(run.message)
        return "\n".join(lines)

    def _show_completions(self, detail: RunDetail) -> None:
        rows = detail.completions
        rewards = list(dict.fromkeys(key for row in rows for key in row if key != "completion"))
        self.completions.set_columns([(self.tr("Completion"), ""), *((name, "") for name in rewards)])
        self.completions.show_rows(
            [
                [" ".join(str(row.get("completion", "")).split()), *(_score(row.get(name)) for name in rewards)]
                for row in rows
            ]
        )
        self.tabs.setTabEnabled(COMPLETIONS, bool(rows))  # SFT logs none; GRPO from its first logged step

    def _show_tab_titles(self) -> None:
        step = self.detail.completions_step if self.detail else None
        self.tabs.setTabText(CURVES, self.tr("Curves"))
        self.tabs.setTabText(
            COMPLETIONS, fill(self.tr("Completions (step %1)"), step) if step is not None else self.tr("Completions")
        )
        self.tabs.setTabText(LOG, self.tr("Log"))

    # commands -------------------------------------------------------------------------------------------------------

    def cancel(self) -> None:
        if self.detail is not None and self.workspace is not None:
            self._run(training().cancel_argv(self.detail.run.id, self.workspace), self.tr("Cancelling…"))

    def resume(self) -> None:
        if self.detail is not None and self.workspace is not None:
            self._run(training().resume_argv(self.detail.run.id, self.workspace), self.tr("Resuming…"))

    def evaluate(self) -> None:
        detail, workspace = self.detail, self.workspace
        if detail is None or workspace is None or detail.checkpoint is None:
            return
        waiting = fill(self.tr("Evaluating %1 on the held-out trajectories… (a minute or more)"), detail.checkpoint)
        self.evaluating, self.opened = detail.run.id, None
        self._run(training().eval_argv(detail.run, detail.checkpoint, workspace), waiting)

    def evaluating_pid(self) -> int | None:
        """The process of an evaluation under way whose evaluation has not been found yet."""
        if self.command is None or self.evaluating is None or self.opened is not None:
            return None
        return self.command.pid() or None

    def evaluation_found(self, evaluation_id: int) -> None:
        """The command under way has begun `evaluation_id`: shown in the Models view now, as it runs."""
        if self.evaluating is None or self.opened is not None:
            return
        self.opened = self.evaluations[self.evaluating] = evaluation_id
        self._enable()
        self.open_evaluation.emit(evaluation_id)

    def _run(self, argv: list[str], waiting: str) -> None:
        assert self.workspace is not None and self.detail is not None
        run_id = self.detail.run.id
        self.command = CliProcess(argv, training().cli_environment(self.workspace), self)
        self.command.finished.connect(lambda code, output: self._ended(run_id, argv, code, output))
        self.command.start()
        self._say(waiting)
        self._enable()
        self.command_started.emit()

    def _ended(self, run_id: int, argv: list[str], exit_code: int, output: str) -> None:
        self.command = None
        opened, self.evaluating, self.opened = self.opened, None, None
        evaluation = EVALUATION.search(output) if "eval" in argv else None
        if evaluation is not None:
            self.evaluations[run_id] = int(evaluation.group(1))
        if exit_code != 0:
            self._say(training().error_line(output) or fill(self.tr("The command failed (%1)."), exit_code), True)
        else:
            self._say(self._success(output, evaluation), report=self._report(output) if evaluation else None)
        self._enable()
        self.changed.emit()
        started = STARTED.search(output)
        if exit_code == 0 and started is not None and "resume" in argv:
            self.run_started.emit(int(started.group(1)))
        if evaluation is not None and int(evaluation.group(1)) != opened:
            # Not found while it ran (it was quick, or the view was hidden): shown now, a failed one too, with why.
            self.open_evaluation.emit(int(evaluation.group(1)))

    def _success(self, output: str, evaluation: re.Match[str] | None) -> str:
        if evaluation is None:
            return next((line for line in output.splitlines() if line.startswith("Training run")), output.strip())
        summary = (training().last_json(output) or {}).get("summary") or {}
        accuracy = summary.get("step_accuracy")
        shown = "—" if not isinstance(accuracy, (int, float)) else f"{100 * accuracy:.1f}%"
        return fill(self.tr("Evaluation %1 is done: step accuracy %2."), evaluation.group(1), shown)

    @staticmethod
    def _report(output: str) -> str | None:
        """The HTML report `eval --json` wrote (beside its JSON)."""
        paths = (training().last_json(output) or {}).get("report") or []
        return next((str(path) for path in paths if str(path).endswith(".html")), None)

    def _say(self, text: str, error: bool = False, report: str | None = None) -> None:
        """The outcome line: the words as they are, and the evaluation's HTML report as a link to open."""
        self.outcome.setStyleSheet(ERROR_STYLE if error else "")
        link = ""
        if report is not None:
            link = f' <a href="{QUrl.fromLocalFile(report).toString()}">{html.escape(Path(report).name)}</a>'
        self.outcome.setText(html.escape(text) + link)

    def _open_evaluation(self) -> None:
        if self.detail is not None and self.detail.run.id in self.evaluations:
            self.open_evaluation.emit(self.evaluations[self.detail.run.id])

    def busy(self) -> bool:
        return self.command is not None

    def stop(self) -> None:
        """Stop a command under way (the window closes): an evaluation ends; a run it launched goes on."""
        if self.command is not None:
            self.command.stop()

    def _enable(self) -> None:
        run, idle = self.detail.run if self.detail else None, not self.busy() and self.workspace is not None
        writable = idle and self.workspace is not None and not self.workspace.read_only
        has_model = self.detail is not None and self.detail.checkpoint is not None
        self.buttons["cancel"].setEnabled(bool(writable and run and run.live))
        self.buttons["resume"].setEnabled(
            bool(writable and run and not run.live and run.status != "complete" and has_model)
        )
        self.buttons["evaluate"].setEnabled(bool(writable and run and not run.live and has_model))
        self.buttons["open"].setVisible(run is not None and run.id in self.evaluations)

    def retranslate(self) -> None:
        self.buttons["cancel"].setText(self.tr("&Cancel Run"))
        self.buttons["cancel"].setToolTip(self.tr("Stop the run's processes (terminate, wait, kill)"))
        self.buttons["resume"].setText(self.tr("Res&ume"))
        self.buttons["resume"].setToolTip(self.tr("Launch it again from its last checkpoint, as a new run"))
        self.buttons["evaluate"].setText(self.tr("&Evaluate Checkpoint"))
        self.buttons["evaluate"].setToolTip(
            self.tr("Evaluate the run's model offline on the workspace's held-out trajectories (trainer-bridge eval)")
        )
        self.buttons["open"].setText(self.tr("&Open in Models"))
        if self.detail is not None:
            self.show_detail(self.detail)
        self._show_tab_titles()


def _score(value: Any) -> str:
    return figure(float(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
