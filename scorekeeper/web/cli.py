"""Command-line commands: ``flask --app app replay RECORD.json``."""

from __future__ import annotations

import json
from typing import BinaryIO

import click
from flask import Flask

from scorekeeper.rules.record import replay


@click.command("replay")
@click.argument("record", type=click.File("rb"))
def replay_command(record: BinaryIO) -> None:
    """Replay an all-fives/1 game record (- reads standard input) and print the result as JSON.

    Exits 0 when the whole record is legal and 1 when it is refused.
    """
    output, legal = replay(record.read())
    click.echo(json.dumps(output, indent=2, ensure_ascii=False))
    raise SystemExit(0 if legal else 1)


def init_app(app: Flask) -> None:
    """Register the commands."""
    app.cli.add_command(replay_command)
