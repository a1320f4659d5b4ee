"""Command-line commands: ``flask --app app replay RECORD.json``, ``flask --app app games``,
``flask --app app backup PATH`` (a safe copy of the SQLite database while the app runs),
``flask --app app stats`` (how big the data is), and
``flask --app app serve``, which runs the app for the phones at a table."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import tempfile

import click
import segno
from flask import Flask
from flask.cli import ScriptInfo, with_appcontext
from sqlalchemy import Text, cast, func, inspect, select, text

from scorekeeper.web.data import clubs, games
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import ClubPlayerRow, ClubRow, EventRow, GameRow
from scorekeeper.web.network import local_addresses
from scorekeeper.web.site.night_cli import nights_command
from scorekeeper.web.site.replay_cli import replay_command

STATUS = {"lead": "choosing the leader", "play": "in play", "settle": "settling", "over": "over"}


base_url_option = click.option(
    "--base-url",
    default="http://localhost:5000",
    show_default=True,
    help="The address the links start with (the site as players open it).",
)
"""The operator commands' ``--base-url``: links are printed whole, ready to open."""


@click.command("games")
@base_url_option
@with_appcontext
def games_command(base_url: str) -> None:
    """List every game on this server with its status and both links (for the operator).

    Most recently changed first. The links are secrets: whoever has the edit link can change
    the game.
    """
    base = base_url.rstrip("/")
    rows = games.list_games()
    for row in rows:
        status = STATUS.get(row.status, row.status)
        if row.status == "over" and row.winner:
            status = f"over, {row.winner} won"
        click.echo(f"{row.updated_at:%Y-%m-%d %H:%M}  {', '.join(row.players)}  ({status})")
        click.echo(f"    edit:  {base}/games/{row.edit_key}")
        click.echo(f"    watch: {base}/watch/{row.watch_key}")
    click.echo(f"{len(rows)} game{'' if len(rows) == 1 else 's'}.")


@click.command("clubs")
@base_url_option
@with_appcontext
def clubs_command(base_url: str) -> None:
    """List every club on this server with its games, players and both links (for the
    operator). A to Z. The links are secrets: whoever has the edit link can start games."""
    base = base_url.rstrip("/")
    every = db.session.scalars(select(ClubRow)).all()
    for club in sorted(every, key=lambda c: c.name.casefold()):
        games = len(clubs.club_games(club))
        players = len(clubs.roster(club))
        click.echo(f"{club.name}  ({games} game{'' if games == 1 else 's'}, {players} players)")
        click.echo(f"    edit:  {base}/clubs/{club.edit_key}")
        click.echo(f"    watch: {base}/clubs/watch/{club.watch_key}")
    click.echo(f"{len(every)} club{'' if len(every) == 1 else 's'}.")


def _size(count: float) -> str:
    """Bytes in words: "1.7 MB"."""
    for unit in ("bytes", "KB", "MB", "GB"):
        if count < 1000 or unit == "GB":
            return f"{count:.0f} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1000
    return f"{count:.1f} GB"


def _database_bytes() -> tuple[str, int]:
    """The database's kind and its size on disk (SQLite: the file and its write-ahead log)."""
    url = db.engine.url
    if url.get_backend_name() == "sqlite":
        path = url.database or ""
        size = sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))
        return f"SQLite at {path}", size
    size = db.session.scalar(text("SELECT pg_database_size(current_database())")) or 0
    return url.get_backend_name(), int(size)


@click.command("stats")
@with_appcontext
def stats_command() -> None:
    """How big this server's data is: the database on disk, its games, events and clubs, and
    the largest of them (for the operator: where the space goes)."""
    kind, size = _database_bytes()
    click.echo(f"Database: {kind}, {_size(size)} on disk.")
    if not inspect(db.engine).has_table(GameRow.__tablename__):
        raise click.ClickException("It has no tables yet: run flask --app app db upgrade.")
    count = func.count()
    game_rows = db.session.execute(
        select(count, func.count(GameRow.deleted_at), func.count(GameRow.club_id))
    ).one()
    finished = db.session.scalar(select(count).where(GameRow.status == "over"))
    click.echo(
        f"Games: {game_rows[0]} ({finished} finished, {game_rows[2]} in clubs,"
        f" {game_rows[1]} deleted and waiting to be purged)."
    )
    stored = cast(EventRow.data, Text)
    events = db.session.execute(
        select(
            count, func.count(EventRow.undone_at), func.coalesce(func.sum(func.length(stored)), 0)
        )
    ).one()
    click.echo(f"Events: {events[0]} ({events[1]} undone), {_size(events[2])} of entries.")
    clubs_count = db.session.scalar(select(func.count()).select_from(ClubRow))
    players = db.session.scalar(select(func.count()).select_from(ClubPlayerRow))
    click.echo(f"Clubs: {clubs_count}, with {players} players on their rosters.")
    largest = db.session.execute(
        select(GameRow.watch_key, GameRow.players, func.count(EventRow.id).label("events"))
        .join(EventRow, EventRow.game_id == GameRow.id)
        .group_by(GameRow.id)
        .order_by(func.count(EventRow.id).desc())
        .limit(5)
    ).all()
    if largest:
        click.echo("Largest games (events, watch key):")
        for watch_key, names, number in largest:
            click.echo(f"    {number:>7}  {', '.join(names)}  ({watch_key})")
    busiest = db.session.execute(
        select(ClubRow.name, func.count(GameRow.id))
        .join(GameRow, GameRow.club_id == ClubRow.id)
        .group_by(ClubRow.id)
        .order_by(func.count(GameRow.id).desc())
        .limit(5)
    ).all()
    if busiest:
        click.echo("Largest clubs (games):")
        for name, number in busiest:
            click.echo(f"    {number:>7}  {name}")


NOT_SQLITE = (
    "This server's database is {name}, not SQLite: back it up with its own tools, for "
    "PostgreSQL pg_dump (pg_dump --format=custom --file=scorekeeper.dump DATABASE_URL) and "
    "pg_restore to restore it. See the README."
)


def backup_sqlite(source: str, target: str) -> int:
    """Copy the SQLite database ``source`` to ``target`` with SQLite's online backup API.

    The copy is one consistent snapshot, taken while the app keeps running: committed
    changes still in the ``-wal`` file are in it, later ones are not. It is written beside
    ``target`` first and then renamed, so ``target`` is never half written. Returns how many
    games the copy holds.
    """
    folder = os.path.dirname(os.path.abspath(target))
    descriptor, partial = tempfile.mkstemp(prefix=".backup-", suffix=".sqlite", dir=folder)
    os.close(descriptor)
    try:
        with (
            contextlib.closing(sqlite3.connect(source, timeout=30)) as live,
            contextlib.closing(sqlite3.connect(partial)) as copy,
        ):
            live.backup(copy)  # in one step: a read snapshot; writers go on (WAL)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            games = int(copy.execute("SELECT count(*) FROM game").fetchone()[0])
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise
    return games


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def backup_command(path: str) -> None:
    """Copy the SQLite database to PATH, safely while the app runs (SQLite's backup API).

    Never copy scorekeeper.sqlite by hand while the app runs: the latest games may still be
    in scorekeeper.sqlite-wal. For PostgreSQL use pg_dump instead (this command refuses).
    """
    url = db.engine.url
    if url.get_backend_name() != "sqlite":
        raise click.ClickException(NOT_SQLITE.format(name=url.get_backend_name()))
    source = url.database
    if not source or source == ":memory:" or not os.path.exists(source):
        raise click.ClickException(f"There is no SQLite database file to back up ({source}).")
    if os.path.exists(path) and os.path.samefile(source, path):
        raise click.ClickException("PATH is the database itself: choose another file.")
    try:
        games = backup_sqlite(source, path)
    except (OSError, sqlite3.Error) as error:
        message = f"The backup failed, nothing was written to {path}: {error}"
        raise click.ClickException(message) from None
    click.echo(f"Backed up {games} game{'' if games == 1 else 's'} to {path}.")


SERVED = (
    "--worker-class", "scorekeeper.web.site.worker.TableWorker", "--workers", "1",
    "--worker-connections", "4000", "--graceful-timeout", "10", "--keep-alive", "10",
)  # fmt: skip
"""gunicorn's options for ``flask serve``: the hosting recipe's, with one process, so that
SQLite's writers stay in one place. The gevent worker holds every phone's event stream (a
greenlet each) and pushes each change. ``--keep-alive`` is also how long gunicorn waits for
a new connection's first request, and closes it unanswered after: on a busy machine the
phones that all reconnect after a restart wait longer than its default 2 s to be read."""


def served_app(import_path: str | None = None) -> Flask:
    """The app ``flask serve`` hands gunicorn, found as ``flask --app`` found it
    (``import_path``). gunicorn calls it in its worker, after gevent has patched the standard
    library: the app's locks, database pool and threads are then gevent's."""
    return ScriptInfo(app_import_path=import_path).load_app()


def gunicorn_command(bind: str, import_path: str | None) -> list[str]:
    """The command ``flask serve`` becomes: gunicorn, in a fresh interpreter (gevent must
    patch before anything of the app is imported, which the flask command has done)."""
    target = f"{__name__}:served_app({import_path!r})"
    return [sys.executable, "-m", "gunicorn", *SERVED, "--bind", bind, target]


def announce(host: str, port: int, show_qr: bool) -> None:
    """Say where the phones at the table open the app, with a QR code of the first address."""
    if host not in ("0.0.0.0", "::", ""):
        click.echo(f"Open http://{host}:{port} (this machine only: HOST=0.0.0.0 shares it).")
        return
    addresses = local_addresses()
    if not addresses:
        click.echo(f"Listening on port {port} of every network; no local address was found.")
        click.echo(f"On this machine: http://localhost:{port}")
        return
    click.echo("The phones at the table open (same Wi-Fi):")
    for address in addresses:
        click.echo(f"    http://{address}:{port}")
    if show_qr:
        segno.make(f"http://{addresses[0]}:{port}", error="m").terminal(compact=True)
        click.echo("Scan the code with a phone's camera to open the first address.")


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="0.0.0.0: the local network.")
@click.option("--port", default=5000, show_default=True, type=int)
@click.option(
    "--qr/--no-qr", default=None, help="Print the address as a QR code (default: on a terminal)."
)
def serve_command(host: str, port: int, qr: bool | None) -> None:
    """Serve the app for the phones at a table, and print the address they open.

    Listens on the local network by default, so every phone on the same Wi-Fi can reach it;
    for a club on the internet use gunicorn behind an HTTPS proxy instead (see README).
    """
    announce(host, port, sys.stdout.isatty() if qr is None else qr)
    info = click.get_current_context().ensure_object(ScriptInfo)
    command = gunicorn_command(
        f"[{host}]:{port}" if ":" in host else f"{host}:{port}", info.app_import_path
    )
    # One process has no other worker to share its rendered pages with (rendered.py): the
    # files would only cost each change a write.
    os.environ.setdefault("SCOREKEEPER_SHARED_PAGES", "false")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)


def init_app(app: Flask) -> None:
    """Register the commands."""
    app.cli.add_command(replay_command)
    app.cli.add_command(games_command)
    app.cli.add_command(clubs_command)
    app.cli.add_command(nights_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(stats_command)
    app.cli.add_command(serve_command)
