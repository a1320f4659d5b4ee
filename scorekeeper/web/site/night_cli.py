"""``flask --app app nights``: the club nights on this server, each exported as its
``all-fives-night/1`` record (docs/night-record.md), and a record imported into a club."""

from __future__ import annotations

import json
import os

import click
from flask.cli import with_appcontext
from sqlalchemy import select

from scorekeeper.web.data import night_records
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import ClubRow
from scorekeeper.web.data.night_models import NightRow
from scorekeeper.web.data.night_records import NightRecordProblem
from scorekeeper.web.routes import IMPORT_BODY


def _club(name: str) -> ClubRow:
    """The club named ``name`` (any case), or a refusal naming the clubs there are."""
    every = db.session.scalars(select(ClubRow)).all()
    found = [c for c in every if c.name.casefold() == name.strip().casefold()]
    if len(found) != 1:
        why = "no club is" if not found else f"{len(found)} clubs are"
        raise click.ClickException(f"{why} named {name!r} (flask --app app clubs lists them).")
    return found[0]


@click.group("nights", invoke_without_command=True)
@click.option("--club", "club_name", default=None, help="Only this club's nights (its name).")
@click.pass_context
@with_appcontext
def nights_command(context: click.Context, club_name: str | None) -> None:
    """List the club nights on this server (id, club, date, rounds, players, state), or
    export or import one (see the commands below)."""
    if context.invoked_subcommand is not None:
        return
    query = select(NightRow).order_by(NightRow.id)
    if club_name is not None:
        query = query.where(NightRow.club_id == _club(club_name).id)
    rows = db.session.scalars(query).all()
    for row in rows:
        club = db.session.get(ClubRow, row.club_id)
        seated = len(row.round_rows)
        click.echo(
            f"{row.id:>5}  {club.name if club else '?'}  {row.created_at:%Y-%m-%d}"
            f"  {seated} of {row.rounds} round{'' if row.rounds == 1 else 's'}"
            f"  {len(row.players)} players  {night_records.night_state(row)}"
        )
    click.echo(f"{len(rows)} night{'' if len(rows) == 1 else 's'}.")


@nights_command.command("export")
@click.argument("night_id", type=int)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file.")
@with_appcontext
def export_command(night_id: int, output: str | None) -> None:
    """Write night NIGHT_ID as an all-fives-night/1 record (to standard output, or FILE)."""
    row = db.session.get(NightRow, night_id) if 0 < night_id < 2**31 else None
    club = db.session.get(ClubRow, row.club_id) if row is not None else None
    if row is None or club is None:
        raise click.ClickException(f"There is no night {night_id} (flask --app app nights).")
    body = json.dumps(night_records.write_night(row, club), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        click.echo(body, nl=False)
        return
    partial = f"{output}.partial"
    try:
        with open(partial, "w", encoding="utf-8") as out:
            out.write(body)
        os.replace(partial, output)
    except OSError as error:
        raise click.ClickException(f"Nothing was written to {output}: {error}") from None
    click.echo(f"Night {night_id} written to {output}.", err=True)


@nights_command.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--club", "club_name", required=True, help="The club that takes the night.")
@with_appcontext
def import_command(path: str, club_name: str) -> None:
    """Import the night record at PATH into a club (all or nothing)."""
    club = _club(club_name)
    if os.path.getsize(path) > IMPORT_BODY:
        raise click.ClickException(
            f"{path} is larger than {IMPORT_BODY // 2**20} MB, the most an import takes."
        )
    with open(path, "rb") as source:
        data = source.read()
    try:
        row = night_records.import_night(club, night_records.read_night(data))
    except NightRecordProblem as refused:
        raise click.ClickException(f"{refused.said} Nothing was imported.") from None
    click.echo(f"Imported night {row.id} into {club.name} ({len(row.players)} players).")
