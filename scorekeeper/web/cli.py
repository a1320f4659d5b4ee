"""Command-line commands: ``flask --app app replay RECORD.json`` and ``flask --app app games``."""

from __future__ import annotations

import json
from typing import BinaryIO

import click
from flask import Flask
from flask.cli import with_appcontext

from scorekeeper.rules.record import replay
from scorekeeper.web import store

STATUS = {"lead": "choosing the leader", "play": "in play", "settle": "settling", "over": "over"}


@click.command("replay")
@click.argument("record", type=click.File("rb"))
def replay_command(record: BinaryIO) -> None:
    """Replay an all-fives/1 game record (- reads standard input) and print the result as JSON.

    Exits 0 when the whole record is legal and 1 when it is refused.
    """
    output, legal = replay(record.read())
    click.echo(json.dumps(output, indent=2, ensure_ascii=False))
    raise SystemExit(0 if legal else 1)


@click.command("games")
@click.option(
    "--base-url",
    default="http://localhost:5000",
    show_default=True,
    help="The address the links start with (the site as players open it).",
)
@with_appcontext
def games_command(base_url: str) -> None:
    """List every game on this server with its status and both links (for the operator).

    Most recently changed first. The links are secrets: whoever has the edit link can change
    the game.
    """
    base = base_url.rstrip("/")
    rows = store.list_games()
    for row in rows:
        status = STATUS.get(row.status, row.status)
        if row.status == "over" and row.winner:
            status = f"over, {row.winner} won"
        click.echo(f"{row.updated_at:%Y-%m-%d %H:%M}  {', '.join(row.players)}  ({status})")
        click.echo(f"    edit:  {base}/games/{row.edit_key}")
        click.echo(f"    watch: {base}/watch/{row.watch_key}")
    click.echo(f"{len(rows)} game{'' if len(rows) == 1 else 's'}.")


def init_app(app: Flask) -> None:
    """Register the commands."""
    app.cli.add_command(replay_command)
    app.cli.add_command(games_command)
