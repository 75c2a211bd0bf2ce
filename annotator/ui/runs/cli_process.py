"""One `trainer-bridge` command run as a subprocess of the app (QProcess: the GUI thread never waits on it).

The bridge's commands load torch and TRL, which the app itself never imports, and a launched run must outlive the
window; so the Runs view asks the command line, as a person on a terminal would, and shows what it printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, Signal

FAILED_TO_START = -1  # the exit code `finished` gives when the process could not start or crashed


class CliProcess(QObject):
    finished = Signal(int, str)  # exit code (FAILED_TO_START when it never ran or crashed), stdout and stderr

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.argv = list(argv)
        self.process = QProcess(self)
        environment = QProcessEnvironment.systemEnvironment()
        for key, value in env.items():
            environment.insert(key, value)
        environment.insert("PYTHONUNBUFFERED", "1")
        self.process.setProcessEnvironment(environment)
        self.process.setProcessChannelMode(QProcess.ProcessChannelMode.MergedChannels)  # the error line is on stderr
        self.process.finished.connect(self._finished)
        self.process.errorOccurred.connect(self._error)
        self._reported = False

    def start(self) -> None:
        self.process.start(self.argv[0], self.argv[1:])

    def pid(self) -> int:
        """The command's process id while it runs, else 0."""
        return int(self.process.processId())

    def running(self) -> bool:
        return self.process.state() != QProcess.ProcessState.NotRunning

    def stop(self) -> None:
        """End the command (not a run it launched: that leads a process group of its own)."""
        if self.running():
            self.process.kill()
            self.process.waitForFinished(3000)

    def _output(self) -> str:
        return bytes(self.process.readAll().data()).decode("utf-8", errors="replace")

    def _finished(self, exit_code: int, status: QProcess.ExitStatus) -> None:
        crashed = status == QProcess.ExitStatus.CrashExit
        self._report(FAILED_TO_START if crashed else exit_code, self._output())

    def _error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:  # no finished() follows
            self._report(FAILED_TO_START, self.process.errorString())

    def _report(self, exit_code: int, output: str) -> None:
        if not self._reported:
            self._reported = True
            self.finished.emit(exit_code, output)
