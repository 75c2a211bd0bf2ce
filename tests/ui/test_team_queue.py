"""The review view's queues mark what an admin assigned to the person and leave out what others hold."""

from __future__ import annotations

from PySide6.QtCore import Qt

from annotator.services import team
from annotator.services.team import Target
from annotator.storage.workspace import Workspace
from annotator.ui.review.queue_model import ASSIGNED_MARK, WORK_COLUMNS, QueueModel, load_queues
from tests.factories import add_trajectory


def test_my_work_shows_my_assignments_first_and_not_others(qapp: object, workspace: Workspace) -> None:
    ids = [add_trajectory(workspace, "设置", f"任务 {n}", 1, seed=n, label=False) for n in range(3)]
    for name, role in (("主管", "admin"), ("小王", "annotator"), ("小李", "annotator")):
        team.add_person(workspace, name, role, by="主管")
    team.assign(workspace, "小王", Target(trajectory_ids=(ids[2],)), by="主管")
    team.assign(workspace, "小李", Target(trajectory_ids=(ids[0],)), by="主管")
    queues = load_queues(workspace, "小王")
    model = QueueModel(WORK_COLUMNS)
    model.set_items(queues.mine, queues.assigned)
    assert [item.trajectory_id for item in model.items] == [ids[2], ids[1]]
    marks = [model.data(model.index(row, 0), Qt.ItemDataRole.DecorationRole) for row in range(2)]
    assert marks == [ASSIGNED_MARK, None]
    assert model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole) == "Assigned to you by 主管"
