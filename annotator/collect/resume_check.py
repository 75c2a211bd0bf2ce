"""Before a run is resumed: is the phone still where the run left it?

A phone that restarted, or that someone used meanwhile, shows another screen than the one the run stopped on; an
agent resumed there would act on a history that no longer fits the screen. The check compares the phone's screen
now with the last one recorded:

- the screen kept after the last action (a run stopped by the user, the step limit or the model failing): the two
  images, shrunk to a small grey thumbnail, must be nearly the same;
- otherwise the last step's screen, from before its action (the phone went away before the next screen was
  recorded): the action has changed the screen since, so the images are not compared alone; the foreground app
  must be the same, or the images nearly the same. After an action that may leave the app (a system button such
  as Back or Home, `open`, a key) the screen it led to cannot be told: the run goes on from the screen shown, and
  the reason says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotator.device.observe import DeviceObservation
from annotator.domain.trajectory import LabelledTrajectory
from annotator.imaging.compare import screen_difference
from annotator.storage.collection import action_name
from annotator.storage.workspace import Workspace

LEAVING_ACTIONS = ("system_button", "open", "key")  # what may end in another app, e.g. Back on an app's first page
SAME_SCREEN = 0.06  # mean absolute difference of the grey thumbnails (0-1) up to which two screens are the same


@dataclass(frozen=True)
class ScreenCheck:
    """Whether the phone shows the run's last screen; `reason` says what was compared and what differs."""

    same: bool
    reason: str


def check_screen(workspace: Workspace, trajectory: LabelledTrajectory, now: DeviceObservation) -> ScreenCheck:
    """Compare the phone's screen `now` with the last screen `trajectory` recorded (see the module docstring)."""
    if trajectory.final_screen is not None:
        difference = screen_difference(workspace.blobs.read_bytes(trajectory.final_screen.sha256), now.png)
        if difference <= SAME_SCREEN:
            return ScreenCheck(True, "the phone shows the screen the run stopped on")
        return ScreenCheck(False, f"the screen differs from the one the run stopped on ({difference:.0%} apart)")
    executed = trajectory.executed
    if not executed:
        return ScreenCheck(True, "the run recorded no screen yet")
    last = executed[-1]
    difference = screen_difference(workspace.blobs.read_bytes(last.screenshot_sha256), now.png)
    if difference <= SAME_SCREEN:
        return ScreenCheck(True, "the phone shows the last recorded screen")
    recorded = last.raw.package
    if recorded is not None and now.package == recorded:
        return ScreenCheck(True, f"the phone shows the same app ({recorded}) as the last recorded step")
    action = action_name(last.raw.tool_call)
    if action in LEAVING_ACTIONS:
        return ScreenCheck(True, f"the last action ({action}) may have left the app: going on from the screen shown")
    shown = now.package or "an unknown app"
    return ScreenCheck(
        False,
        f"the phone shows {shown}, the last recorded step showed {recorded or 'an unknown app'} "
        f"(and the screens are {difference:.0%} apart)",
    )
