"""The same models, migrations, bundles and stats on a real PostgreSQL server.

Runs when ANNOTATOR_TEST_POSTGRES_URL names a server where we may create databases
(.ci/run starts one); a developer without PostgreSQL sees these tests skipped. The storage and service tests
run there too (tests/conftest.py); these move data between a SQLite workspace and a team database.
"""

from pathlib import Path

import pytest

from annotator.domain.counting import Counting
from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import blind_rating, studies
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.stats import dataset_stats
from annotator.storage import judging, labels
from annotator.storage.judging import ScoreRecord
from annotator.storage.selection import TrajectorySelection, selected_ids
from annotator.storage.workspace import Workspace
from tests.factories import add_people, step_ids
from tests.postgres import needs_postgres

pytestmark = [needs_postgres, pytest.mark.sqlite_only]  # from a SQLite workspace to a team database


@pytest.mark.slow
def test_bundle_labels_and_stats_on_postgres(populated: Workspace, postgres_url: str, tmp_path: Path) -> None:
    bundle = export_bundle(populated, tmp_path / "bundle.zip").path
    with Workspace.open(tmp_path / "team", postgres_url) as team:
        assert team.database.engine.url.get_backend_name() == "postgresql"
        result = import_bundle(team, bundle)
        assert (result.trajectories_added, result.steps_added) == (3, 7)
        assert import_bundle(team, bundle).trajectories_added == 0
        assert dataset_stats(team.database, Counting.ROWS) == dataset_stats(populated.database, Counting.ROWS)
        first_step = step_ids(team)[0]
        assert labels.update_label(team.database, first_step, {"verdict": "wrong", "think": "改"}, person="小王") == 2
        again = export_bundle(team, tmp_path / "again")
        assert again.steps == 7


def test_judge_scores_and_a_study_on_postgres(populated: Workspace, postgres_url: str, tmp_path: Path) -> None:
    bundle = export_bundle(populated, tmp_path / "bundle.zip").path
    with Workspace.open(tmp_path / "team", postgres_url) as team:
        import_bundle(team, bundle)
        config = judging.ensure_config(team.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
        assert (
            judging.ensure_config(team.database, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m")) == config
        )
        ids = selected_ids(team.database, TrajectorySelection())
        for trajectory, level in zip(ids, (1, 3, 4), strict=True):
            judging.save_score(
                team.database, config, None, trajectory, ScoreRecord(level, "理由", "{}", None, None, 1.0, 2)
            )
        judging.save_score(team.database, config, None, ids[0], ScoreRecord(2, "再问", "{}", None, None, 1.0, 2))
        assert judging.rewards(team.database, config) == {ids[0]: 2, ids[1]: 3, ids[2]: 4}
        add_people(team.database, "小王", "小李")  # raters are people the workspace knows
        studies.create_study(team.database, "团队研究", config, 3, ["小王", "小李"])
        for rater in ("小王", "小李"):
            for entry in blind_rating.rater_queue(team.database, "团队研究", rater):
                blind_rating.rate(team.database, "团队研究", rater, entry.item_id, 3)
        report = studies.study_report(team.database, "团队研究", None, n_boot=50)
        assert (report.n, report.exact_count) == (3, 1)
