"""people.login and the team database's own checks: on PostgreSQL the database refuses what a person's login may
not do (change people or roles, accept or reject, give work, write under another's name, change another's
ratings) and hides the judge's scores of an open study from its raters. docs/adr/0011-identity-is-the-database-login.md

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

# Who is calling: the login (session_user: SET ROLE cannot change it) and the person whose entry names it. The
# owner of the tables (and superusers) is the workspace's DBA and passes every check.
CALLER = """
CREATE FUNCTION annotator_caller_is_owner() RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER {path} AS $$
  SELECT pg_has_role(session_user, (SELECT relowner FROM pg_class WHERE oid = 'people'::regclass), 'MEMBER')
$$;
CREATE FUNCTION annotator_caller_person_id() RETURNS integer LANGUAGE sql STABLE SECURITY DEFINER {path} AS $$
  SELECT id FROM people WHERE login = session_user
$$;
CREATE FUNCTION annotator_require(allowed text[], what text) RETURNS void LANGUAGE plpgsql STABLE
SECURITY DEFINER {path} AS $$
DECLARE
  who people%ROWTYPE;
BEGIN
  IF annotator_caller_is_owner() THEN RETURN; END IF;
  SELECT * INTO who FROM people WHERE login = session_user;
  IF who.role = ANY(allowed) THEN RETURN; END IF;
  RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = format(
    '%s may not %s: %s (checked by the database for the login %s)',
    CASE WHEN who.id IS NULL THEN 'a login that is nobody''s on this workspace''s list'
         ELSE format('%s (%s)', who.name, who.role) END,
    what, CASE WHEN cardinality(allowed) = 0 THEN 'nobody may'
               ELSE 'only ' || array_to_string(allowed, 's and ') || 's may' END, session_user);
END $$;
"""

GUARDS = """
CREATE FUNCTION annotator_guard_people() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM annotator_require(ARRAY['admin'], 'add or remove people or change their roles or logins');
  RETURN COALESCE(NEW, OLD);
END $$;

CREATE FUNCTION annotator_guard_trajectories() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.review_status IN ('accepted', 'rejected') THEN
    PERFORM annotator_require(ARRAY['reviewer', 'admin'], 'store an accepted or rejected trajectory');
  ELSIF TG_OP = 'UPDATE' AND NEW.review_status IS DISTINCT FROM OLD.review_status
        AND (NEW.review_status IN ('accepted', 'rejected') OR OLD.review_status = 'accepted') THEN
    PERFORM annotator_require(ARRAY['reviewer', 'admin'], 'accept, reject or reopen a trajectory');
  ELSIF TG_OP = 'DELETE' AND OLD.review_status = 'accepted' THEN
    PERFORM annotator_require(ARRAY['reviewer', 'admin'], 'delete an accepted trajectory');
  END IF;
  RETURN COALESCE(NEW, OLD);
END $$;

CREATE FUNCTION annotator_guard_reviews() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' OR NEW.status IN ('accepted', 'rejected') THEN
    PERFORM annotator_require(ARRAY['reviewer', 'admin'], 'record or change review decisions');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.reviewer_id IS DISTINCT FROM annotator_caller_person_id() THEN
    PERFORM annotator_require(ARRAY['admin'], 'record a decision under another person''s name');
  END IF;
  RETURN COALESCE(NEW, OLD);
END $$;

CREATE FUNCTION annotator_guard_label_revisions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP <> 'DELETE' AND NEW.person_id IS DISTINCT FROM annotator_caller_person_id())
     OR (TG_OP <> 'INSERT' AND OLD.person_id IS DISTINCT FROM annotator_caller_person_id()) THEN
    PERFORM annotator_require(ARRAY['admin'], 'write or change labels under another person''s name');
  END IF;
  RETURN COALESCE(NEW, OLD);
END $$;

CREATE FUNCTION annotator_guard_assignments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Finishing work is everyone's (a reviewer's decision finishes the annotator's assignment, a rater's last
  -- score their own); giving, moving or taking back work is an admin's.
  IF TG_OP = 'UPDATE' AND (NEW.id, NEW.person_id, NEW.task, NEW.trajectory_id, NEW.app_id, NEW.study_id,
        NEW.assigned_by_id, NEW.assigned_at) IS NOT DISTINCT FROM (OLD.id, OLD.person_id, OLD.task,
        OLD.trajectory_id, OLD.app_id, OLD.study_id, OLD.assigned_by_id, OLD.assigned_at)
     AND NEW.done_at IS NOT NULL
     AND (OLD.person_id = annotator_caller_person_id()
          OR (SELECT role FROM people WHERE id = annotator_caller_person_id()) IN ('reviewer', 'admin')) THEN
    RETURN NEW;
  END IF;
  PERFORM annotator_require(ARRAY['admin'], 'give, move or take back assignments');
  RETURN COALESCE(NEW, OLD);
END $$;

CREATE FUNCTION annotator_guard_study_ratings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rater_person integer := (SELECT person_id FROM study_raters WHERE id = COALESCE(NEW.rater_id, OLD.rater_id));
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF rater_person IS DISTINCT FROM annotator_caller_person_id() THEN
      PERFORM annotator_require(ARRAY['admin'], 'delete another person''s ratings');
    END IF;
  ELSIF rater_person IS DISTINCT FROM annotator_caller_person_id()
        OR (TG_OP = 'UPDATE' AND NEW.rater_id <> OLD.rater_id) THEN
    PERFORM annotator_require(ARRAY[]::text[], 'give or change another person''s ratings');
  END IF;
  RETURN COALESCE(NEW, OLD);
END $$;

CREATE FUNCTION annotator_guard_study_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM annotator_require(ARRAY['admin'], 'remove items from a study');
  ELSIF TG_OP = 'UPDATE' THEN
    IF (NEW.study_id, NEW.trajectory_id, NEW.position, NEW.judge_reward, NEW.app)
       IS DISTINCT FROM (OLD.study_id, OLD.trajectory_id, OLD.position, OLD.judge_reward, OLD.app) THEN
      PERFORM annotator_require(ARRAY['admin'], 'change a study''s sample');
    END IF;
    PERFORM annotator_require(ARRAY['reviewer', 'admin'], 'adjudicate study items');
    IF NEW.adjudicator_id IS DISTINCT FROM annotator_caller_person_id() AND NEW.adjudicator_id IS NOT NULL THEN
      PERFORM annotator_require(ARRAY['admin'], 'adjudicate under another person''s name');
    END IF;
  END IF;
  RETURN COALESCE(NEW, OLD);
END $$;

CREATE FUNCTION annotator_guard_studies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM annotator_require(ARRAY['admin'], 'delete a study');
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM annotator_require(ARRAY['admin'], 'change a study');
  ELSIF NEW.created_by_id IS DISTINCT FROM annotator_caller_person_id() AND NEW.created_by_id IS NOT NULL THEN
    PERFORM annotator_require(ARRAY['admin'], 'make a study in another person''s name');
  END IF;
  RETURN COALESCE(NEW, OLD);
END $$;

CREATE FUNCTION annotator_guard_study_raters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Raters are named when a study is made; removing one could close a study early and show its scores.
  IF TG_OP <> 'INSERT' THEN
    PERFORM annotator_require(ARRAY['admin'], 'remove or change a study''s raters');
  END IF;
  RETURN COALESCE(NEW, OLD);
END $$;
"""

GUARDED_TABLES = (
    "people",
    "trajectories",
    "reviews",
    "label_revisions",
    "assignments",
    "study_ratings",
    "study_items",
    "studies",
    "study_raters",
)

# Which trajectories' judge results the caller must not see: those of every open study they rate (all open
# studies for a login on nobody's entry), except a finished rater's own study when its owner chose to show
# differences early. As storage.studies.hidden_judging says, now enforced for every route.
HIDDEN = """
CREATE FUNCTION annotator_hidden_trajectory_ids() RETURNS SETOF integer LANGUAGE sql STABLE SECURITY DEFINER
{path} AS $$
  WITH progress AS (
    SELECT r.study_id, r.person_id,
           (SELECT count(*) FROM study_ratings t WHERE t.rater_id = r.id)
             >= (SELECT count(*) FROM study_items i WHERE i.study_id = r.study_id) AS finished
    FROM study_raters r
  ), open_studies AS (
    SELECT s.id, s.show_differences_early FROM studies s
    WHERE EXISTS (SELECT 1 FROM progress p WHERE p.study_id = s.id AND NOT p.finished)
  ), hidden_studies AS (
    SELECT o.id FROM open_studies o
    WHERE NOT annotator_caller_is_owner() AND (
      annotator_caller_person_id() IS NULL
      OR EXISTS (SELECT 1 FROM progress p WHERE p.study_id = o.id AND p.person_id = annotator_caller_person_id()
                 AND NOT (o.show_differences_early AND p.finished)))
  )
  SELECT DISTINCT i.trajectory_id FROM study_items i JOIN hidden_studies h ON h.id = i.study_id
$$;
ALTER TABLE judge_scores ENABLE ROW LEVEL SECURITY;
CREATE POLICY judge_scores_all ON judge_scores USING (true) WITH CHECK (true);
CREATE POLICY judge_scores_blind ON judge_scores AS RESTRICTIVE FOR SELECT
  USING (trajectory_id NOT IN (SELECT annotator_hidden_trajectory_ids()));
CREATE VIEW study_item_strata WITH (security_barrier) AS
  SELECT id AS item_id,
         CASE WHEN trajectory_id IN (SELECT annotator_hidden_trajectory_ids()) THEN NULL ELSE judge_reward END
           AS judge_reward
  FROM study_items;
"""


def upgrade() -> None:
    # A unique index rather than a constraint: SQLite adds it without rebuilding the table.
    op.add_column("people", sa.Column("login", sa.String(length=63), nullable=True))
    op.create_index("uq_people_login", "people", ["login"], unique=True)
    if op.get_bind().dialect.name != "postgresql":
        # One trust on SQLite: whoever can write the file can do anything. The strata are read through the view
        # on both databases so that one query serves both.
        op.execute("CREATE VIEW study_item_strata AS SELECT id AS item_id, judge_reward FROM study_items")
        return
    schema = op.get_bind().exec_driver_sql("SELECT current_schema()").scalar()
    path = f'SET search_path = "{schema}", pg_temp'  # a SECURITY DEFINER function must not find a caller's objects
    op.execute(CALLER.format(path=path))
    op.execute(GUARDS)
    for table in GUARDED_TABLES:
        op.execute(
            f"CREATE TRIGGER annotator_guard BEFORE INSERT OR UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION annotator_guard_{table}()"
        )
    op.execute(HIDDEN.format(path=path))


def downgrade() -> None:
    op.execute("DROP VIEW study_item_strata")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP POLICY judge_scores_blind ON judge_scores")
        op.execute("DROP POLICY judge_scores_all ON judge_scores")
        op.execute("ALTER TABLE judge_scores DISABLE ROW LEVEL SECURITY")
        op.execute("DROP FUNCTION annotator_hidden_trajectory_ids()")
        for table in GUARDED_TABLES:
            op.execute(f"DROP TRIGGER annotator_guard ON {table}")
            op.execute(f"DROP FUNCTION annotator_guard_{table}()")
        op.execute("DROP FUNCTION annotator_require(text[], text)")
        op.execute("DROP FUNCTION annotator_caller_person_id()")
        op.execute("DROP FUNCTION annotator_caller_is_owner()")
    op.drop_index("uq_people_login", "people")
    op.execute("ALTER TABLE people DROP COLUMN login")  # SQLite 3.35+ and PostgreSQL, no table rebuild
