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
@click.option(
    "--open-last-hand",
    is_flag=True,
    help='Read a last hand that is over but not settled (no "remaining") as still open.',
)
def replay_command(record: BinaryIO, open_last_hand: bool) -> None:
    """Replay an all-fives/1 game record (- reads standard input) and print the result as JSON.

    Exits 0 when the whole record is legal and 1 when it is refused. The format requires
    "remaining" once a hand is over; a game exported while its table was settling has none
    for its last hand, and --open-last-hand replays that hand as "open".
    """
    text = record.read()
    output, legal = replay(text, open_last_hand=open_last_hand)
    click.echo(json.dumps(output, indent=2, ensure_ascii=False))
    # When only the last hand's missing "remaining" stood in the way, say how to see it open.
    if (
        not legal
        and not open_last_hand
        and output["error"]["rule"] == "remaining"
        and replay(text, open_last_hand=True)[1]
    ):
        click.echo(
            "The last hand is over but not settled yet; --open-last-hand replays it as open.",
            err=True,
        )
    raise SystemExit(0 if legal else 1)
