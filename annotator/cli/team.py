"""`annotator people list|add|role`, `annotator assign` and `annotator queue`: a team's people, roles and work.

Roles and who may change them: annotator.services.roles and docs/adr/0008-people-and-roles.md. Who runs a
command is its --as, else ANNOTATOR_PERSON, else the login name when the workspace knows it.
Listed in annotator/cli/root.py's lazy table.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

import click

from annotator.cli.common import command_workspace
from annotator.domain.trajectory import ReviewStatus, TrajectoryStatus
from annotator.services import team
from annotator.services.team import Target
from annotator.storage.assignments import LABEL, REVIEW
from annotator.storage.logins import connected, pgpass_address
from annotator.storage.people import ROLES, list_people
from annotator.storage.selection import TrajectorySelection, selected_ids
from annotator.storage.studies import PERSON_ENV, person_asking

ERRORS = (ValueError, LookupError, PermissionError)
AS_HELP = f"Who runs this (default: ${PERSON_ENV}, else your login name when the workspace knows it)."


def _workspace():
    return command_workspace(ERRORS)


@click.group("people")
def people() -> None:
    """The people of this workspace and their roles (annotator, reviewer, admin)."""


@people.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array.")
def list_command(as_json: bool) -> None:
    """Everyone on the list, admins first, with their open assignments."""
    with _workspace() as workspace:
        found = list_people(workspace.database)
    if as_json:
        click.echo(
            json.dumps([asdict(p) | {"created_at": p.created_at.isoformat()} for p in found], ensure_ascii=False)
        )
        return
    if not found:
        click.echo("Nobody yet: `annotator people add NAME --role admin` names the first admin.")
    for person in found:
        login = f"\tlogin {person.login}" if person.login else ""
        click.echo(f"{person.name}\t{person.role}\t{person.open_assignments} open assignments{login}")


LOGIN_HELP = "Their own PostgreSQL login on a team database (made if new): from then on it is who they are."
PASSWORD_HELP = "Read the new login's password from standard input (default: one is made and shown once)."


@people.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), required=True)
@click.option("--login", help=LOGIN_HELP)
@click.option("--password-stdin", is_flag=True, help=PASSWORD_HELP)
@click.option("--as", "who", help=AS_HELP)
def add_command(name: str, role: str, login: str | None, password_stdin: bool, who: str | None) -> None:
    """Put someone on the list (once the workspace has an admin, only an admin may)."""
    password = _password(password_stdin)
    with _workspace() as workspace:
        made = team.add_person(
            workspace, name, role, by=person_asking(workspace.database, who), login=login, password=password
        )
        where = pgpass_address(workspace.database)
    click.echo(f"{name.strip()} added as {role}" + (f", connecting as {login}." if login else "."))
    _hand_over(made, login, where)


@people.command("login")
@click.argument("name")
@click.argument("login")
@click.option("--password-stdin", is_flag=True, help=PASSWORD_HELP)
@click.option("--as", "who", help=AS_HELP)
def login_command(name: str, login: str, password_stdin: bool, who: str | None) -> None:
    """Give someone on the list their own PostgreSQL login (made if new; admins only, team databases only)."""
    password = _password(password_stdin)
    with _workspace() as workspace:
        made = team.give_login(workspace, name, login, by=person_asking(workspace.database, who), password=password)
        where = pgpass_address(workspace.database)
    click.echo(f"{name.strip()} now connects as {login}.")
    _hand_over(made, login, where)


@people.command("whoami")
def whoami_command() -> None:
    """Who this connection acts as, and whether the database checks it."""
    with _workspace() as workspace:
        found = connected(workspace.database)
    if found is None:
        click.echo(
            "SQLite: no logins. Whoever can write this workspace's file can do anything; roles are a "
            "workflow aid (--as or ANNOTATOR_PERSON says who works)."
        )
    elif found.owner:
        click.echo(f"{found.login}: the database's owner, trusted by every check; --as says whom you act for.")
    elif found.person is None:
        click.echo(f"{found.login}: a login that is nobody's on this workspace's list; it acts for no one.")
    else:
        click.echo(f"{found.person} ({found.role}), checked by the database: you connect as {found.login}.")


def _password(from_stdin: bool) -> str | None:
    if not from_stdin:
        return None
    password = sys.stdin.readline().rstrip("\n")
    if not password:
        raise click.ClickException("no password on standard input; nothing was changed")
    return password


def _hand_over(password: str | None, login: str | None, where: str) -> None:
    """The new login's password, once, as the line the person keeps in ~/.pgpass (mode 600)."""
    if password is None or login is None:
        return
    line = f"{where}:{login}:{password}"
    click.echo(f"Its password, shown only now: {password}")
    click.echo(f"The person keeps this line in ~/.pgpass (chmod 600), then connects without typing it:\n  {line}")


@people.command("role")
@click.argument("name")
@click.argument("role", type=click.Choice(ROLES))
@click.option("--as", "who", help=AS_HELP)
def role_command(name: str, role: str, who: str | None) -> None:
    """Change someone's role (once the workspace has an admin, only an admin may)."""
    with _workspace() as workspace:
        old = team.set_role(workspace, name, role, by=person_asking(workspace.database, who))
    click.echo(f"{name.strip()}: {old} -> {role}.")


@click.command("assign")
@click.option("--to", "person", required=True, help="Whom the work is given to (someone on the list).")
@click.option("--id", "ids", multiple=True, type=int, help="This trajectory (repeat for more).")
@click.option("--app", "apps", multiple=True, help="Trajectories of this app (repeat for more).")
@click.option(
    "--review",
    "review_states",
    multiple=True,
    type=click.Choice([s.value for s in ReviewStatus]),
    help="Trajectories in this review state (repeat for more).",
)
@click.option(
    "--status",
    "statuses",
    multiple=True,
    type=click.Choice([s.value for s in TrajectoryStatus]),
    help="Trajectories with this status (repeat for more).",
)
@click.option("--limit", type=click.IntRange(1), help="At most this many trajectories, oldest first.")
@click.option(
    "--instructions",
    "instruction_set",
    metavar="APP",
    help="The instruction set of an app: its instructions and every trajectory of them.",
)
@click.option("--study", help="A study, to rate (the person becomes one of its raters).")
@click.option(
    "--task",
    type=click.Choice([LABEL, REVIEW]),
    help="For trajectories and instruction sets (default: label for annotators, review for others).",
)
@click.option("--remove", is_flag=True, help="Take the work back instead.")
@click.option("--as", "who", help=AS_HELP)
def assign(
    person: str,
    ids: tuple[int, ...],
    apps: tuple[str, ...],
    review_states: tuple[str, ...],
    statuses: tuple[str, ...],
    limit: int | None,
    instruction_set: str | None,
    study: str | None,
    task: str | None,
    remove: bool,
    who: str | None,
) -> None:
    """Give trajectories, an app's instruction set or a study to a person (admins only)."""
    selecting = bool(apps or review_states or statuses or limit)
    with _workspace() as workspace:
        db = workspace.database
        if selecting:
            chosen = TrajectorySelection(
                apps=apps, review_states=review_states, statuses=statuses, trajectory_ids=ids, limit=limit
            )
            ids = tuple(selected_ids(db, chosen))
            if not ids:
                raise click.ClickException("the selection holds no trajectory; nothing was assigned")
        target = Target(trajectory_ids=ids, app=instruction_set, study=study)
        by = person_asking(db, who)
        if remove:
            taken = team.unassign(workspace, person, target, by=by)
            click.echo(f"Took back {taken} assignments from {person}.")
            return
        done = team.assign(workspace, person, target, by=by, task=task)
    moved = "".join(f"; {count} moved from {name}" for name, count in done.moved_from.items())
    click.echo(f"Assigned to {person}: {done.added} new, {done.kept} held already{moved}.")


@click.command("queue")
@click.option("--person", required=True, help="Whose work (someone on the list).")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="List at most this many trajectories of each queue (the counts are of all).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def queue(person: str, limit: int, as_json: bool) -> None:
    """What a person has to do: trajectories to label and to review, studies to rate, instruction sets."""
    with _workspace() as workspace:
        found = team.person_queue(workspace, person, limit)
    if as_json:
        click.echo(json.dumps(_as_json(found), ensure_ascii=False))
        return
    click.echo(f"{found.person} ({found.role})")
    _echo_queue("To label", found.label)
    if found.review is not None:
        _echo_queue("To review", found.review)
    click.echo(f"To rate ({len(found.rate)})")
    for study in found.rate:
        click.echo(f"  {study.name}: {study.rated}/{study.total} rated")
    for record in found.instruction_sets:
        by = f" by {record.assigned_by}" if record.assigned_by else ""
        click.echo(f"Instruction set: {record.target} ({record.task}, assigned{by})")


def _echo_queue(title: str, found: team.Queue) -> None:
    listed = f"the first {len(found.items)} listed, " if found.total > len(found.items) else ""
    click.echo(f"{title} ({found.total}: {listed}{len(found.assigned)} of them assigned to you)")
    for item in found.items:
        mark = "*" if item.trajectory_id in found.assigned else " "
        click.echo(f" {mark}{item.trajectory_id:>6}  {item.review_status:<11}  {item.app}  {item.instruction}")
    if found.total > len(found.items):
        click.echo(f"  … and {found.total - len(found.items)} more (--limit)")


def _as_json(found: team.PersonalQueue) -> dict[str, object]:
    def rows(part: team.Queue | None) -> list[dict[str, object]] | None:
        if part is None:
            return None
        return [
            {
                "trajectory_id": i.trajectory_id,
                "review_status": i.review_status,
                "app": i.app,
                "instruction": i.instruction,
                "assigned": i.trajectory_id in part.assigned,
            }
            for i in part.items
        ]

    return {
        "person": found.person,
        "role": found.role,
        "label": rows(found.label),
        "review": rows(found.review),
        "label_total": found.label.total,
        "review_total": found.review.total if found.review else None,
        "rate": [asdict(s) for s in found.rate],
        "instruction_sets": [r.target for r in found.instruction_sets],
    }
