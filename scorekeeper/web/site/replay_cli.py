"""``flask --app app replay RECORD.json``: the referee on the command line, light to start.

The command is also a Flask CLI plugin (the ``flask.commands`` entry point in pyproject.toml),
so ``flask`` finds it without loading the app: it imports the rules and click, not the
database, the migrations or the web pages, and answers a record in a fraction of a second.
"""

from __future__ import annotations

import json
from typing import BinaryIO

import click

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
