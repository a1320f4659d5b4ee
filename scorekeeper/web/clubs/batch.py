"""Several game records at once: a JSON Lines file, a zip of record files, or one record.

A batch is read whole before anything is stored: every record is checked by the referee,
and the first one refused stops the import with its place in the batch (which line, which
file) and why, so a batch is imported entirely or not at all. Where and why are
:class:`Message` data, said in the reader's language when the page is made (a file's name is
said as it is).

A club's own export also holds its roster, on a line of its own (see
:data:`~scorekeeper.web.clubs.exports.CLUB_FORMAT`): its names join the club's roster with
the games, so a player who has not played yet moves with the club too, and the house rules
the club's new games start with (its ``defaults``) move with it.
"""

from __future__ import annotations

import base64
import io
import json
import zipfile
import zlib
from dataclasses import dataclass

from scorekeeper.rules import RecordRefusal, Refusal, Setup
from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.messages import Listed, Message, say, say_list
from scorekeeper.rules.names import name_problem
from scorekeeper.rules.options import PRESET_TITLES, parse_options
from scorekeeper.rules.record import Timed, read_timed
from scorekeeper.rules.record_json import parse_json
from scorekeeper.rules.setup import PARTNERS_PLAYERS
from scorekeeper.web.clubs.exports import CLUB_FORMAT
from scorekeeper.web.table import LeftOut, left_out_rules

MAX_RECORDS = 500
"""The most records one batch may hold."""
MAX_UNZIPPED = 16 * 1024 * 1024
"""The most bytes a zip's records may hold once unpacked (a zip bomb is refused unread)."""
ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class BatchProblem(Exception):
    """Why a batch was refused: where (``"line 3"``, ``"games/b.json"``: a message, or a file's
    name said as it is), why (a message) and the referee's refusal when it refused a record."""

    where: Message | str
    message: Message
    refusal: RecordRefusal | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def _from_zip(data: bytes) -> list[tuple[str, bytes]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if not m.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        raise BatchProblem(
            say("the zip file"), say("it cannot be read (%(error)s).", error=str(error))
        ) from None
    records = [m for m in members if m.filename.lower().endswith((".json", ".jsonl"))]
    if not records:
        raise BatchProblem(say("the zip file"), say("it holds no .json record files."))
    if len(records) > MAX_RECORDS:
        raise BatchProblem(
            say("the zip file"), say("it holds more than %(most)s records.", most=MAX_RECORDS)
        )
    if sum(m.file_size for m in records) > MAX_UNZIPPED:
        raise BatchProblem(say("the zip file"), say("its records are too large once unpacked."))
    texts = []
    for member in sorted(records, key=lambda m: m.filename):
        try:
            texts.append((member.filename, _unpacked(archive, member)))
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError) as error:
            raise BatchProblem(
                member.filename, say("it cannot be unpacked (%(error)s).", error=str(error))
            ) from None
    return texts


UNPACK_STEP = 64 * 1024
"""How many bytes of a zip's record are inflated at a time."""


def _unpacked(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> bytes:
    """The record ``member`` inflated a step at a time, never more than its header says.

    The sizes in a zip are what its maker wrote, and their sum was checked against
    MAX_UNZIPPED: kept to them, the records fit the batch. A small file claiming a small
    record can inflate to gigabytes; reading it whole (``ZipFile.read``) inflated every byte
    before the claimed size cut it short. Read in steps, zipfile stops at the claimed size
    (and the record then fails its checksum), holding no more than a step beyond it; the
    count here is the same bound, kept should a reader ever go on past it."""
    parts: list[bytes] = []
    size = 0
    with archive.open(member) as stream:
        while step := stream.read(UNPACK_STEP):
            size += len(step)
            if size > member.file_size:
                raise BatchProblem(
                    member.filename, say("it is larger unpacked than a record can be.")
                )
            parts.append(step)
    return b"".join(parts)


def _records(content: bytes) -> list[tuple[int | None, bytes]]:
    """One record (a JSON object, however it is laid out), else one record per non-empty
    line (JSON Lines), each with its line number."""
    try:
        json.loads(content)
    except (ValueError, RecursionError):
        pass
    else:
        return [(None, content)]
    return [(number, line) for number, line in enumerate(content.splitlines(), 1) if line.strip()]


def _where(name: str, line: int | None) -> Message | str:
    """Where a record is in the batch: its file's name, its line, both, or "the record"."""
    if name and line is not None:
        return say("%(file)s, line %(number)s", file=name, number=line)
    if line is not None:
        return say("line %(number)s", number=line)
    return name or say("the record")


@dataclass(frozen=True)
class Batch:
    """What a batch holds: its games with where each is (``"line 3"``, ``"games/b.json"``)
    and the times its record gives, the names its roster lines list, and the house rules
    the first roster line that gives them says the club's new games start with (None when
    none does), stored as the new-game form stores a club's: ``preset``, ``options`` and
    ``partners`` (None for the preset's way)."""

    games: list[tuple[Message | str, Timed]]
    roster: list[str]
    defaults: dict[str, object] | None = None


_ROSTER_KEYS = {"format", "roster", "defaults"}
_ROSTER_EXAMPLE = json.dumps(
    {
        "format": CLUB_FORMAT,
        "roster": ["Ann", "Bob"],
        "defaults": {"preset": "fives-up", "options": {"target": 150}},
    }
)
_DEFAULTS_KEYS = {"preset", "options", "partners"}
_DEFAULTS_EXAMPLE = json.dumps({"preset": "fives-up", "options": {"target": 150}})


def _roster_names(data: dict[str, object]) -> list[str]:
    """The names a club export's roster line lists, each checked as a player's name."""
    names = data.get("roster")
    if set(data) <= _ROSTER_KEYS and isinstance(names, list):
        listed = [name for name in names if isinstance(name, str) and name.strip()]
        if len(listed) == len(names):
            for name in listed:
                problem = name_problem(name)
                if problem is not None:
                    raise MalformedInput(problem)
            return listed
    raise MalformedInput(
        say(
            "A club's roster line is %(example)s: each player's name, and the house rules "
            "the club's new games start with when it has its own; nothing else.",
            example=_ROSTER_EXAMPLE,
        )
    )


def _club_defaults(given: object) -> dict[str, object]:
    """The house rules a roster line's ``defaults`` gives, read as a record reads its
    ``preset``, ``options`` and ``partners`` (the preset all-fives when it names none),
    checked as a new game's would be: for two players, or four when it plays partners."""
    if not isinstance(given, dict) or not set(given) <= _DEFAULTS_KEYS:
        raise MalformedInput(
            say(
                '"defaults" gives the preset and the house rules the club\'s new games start '
                "with, as a record gives them, such as %(example)s; nothing else.",
                example=_DEFAULTS_EXAMPLE,
            )
        )
    if "options" in given:
        parse_options(given["options"])  # null is no object of house rules, as in a record
    partners = given.get("partners")
    if "partners" in given and not isinstance(partners, bool):
        raise MalformedInput(
            say("partners is true or false, not %(given)s.", given=json.dumps(partners))
        )
    seats = PARTNERS_PLAYERS if partners else 2
    setup = Setup.create(
        [f"Seat {seat}" for seat in range(1, seats + 1)],
        given.get("preset", "all-fives"),
        given.get("options"),
        partners,
    )
    return {"preset": setup.preset, "options": dict(setup.options), "partners": setup.partners}


def read_batch(data: bytes) -> Batch:
    """Every game in ``data`` (zip, JSON Lines or one record) with where it is in the batch
    and its times, the names of the roster lines it holds and the first house rules they
    give; or the first BatchProblem."""
    if not data.strip():
        raise BatchProblem(say("the file"), say("it is empty: choose a file or paste records."))
    files = _from_zip(data) if data.startswith(ZIP_MAGIC) else [("", data)]
    entries = []
    for name, content in files:
        for line, text in _records(content):
            entries.append((_where(name, line), text))
    # A club's export of MAX_RECORDS games has its roster line too: room for one line more,
    # and the games are counted as they are read.
    too_many = BatchProblem(
        say("the batch"), say("it holds more than %(most)s records.", most=MAX_RECORDS)
    )
    if len(entries) > MAX_RECORDS + 1:
        raise too_many
    games: list[tuple[Message | str, Timed]] = []
    roster: list[str] = []
    defaults: dict[str, object] | None = None
    for where, text in entries:
        try:
            try:
                parsed = parse_json(text)
            except Refusal as refusal:
                raise RecordRefusal(refusal.rule, refusal.said, None, None) from None
            if isinstance(parsed, dict) and parsed.get("format") == CLUB_FORMAT:
                try:
                    roster.extend(_roster_names(parsed))
                    if "defaults" in parsed:
                        given = _club_defaults(parsed["defaults"])
                        defaults = given if defaults is None else defaults
                except Refusal as refusal:
                    raise BatchProblem(where, refusal.said) from None
                continue
            if len(games) == MAX_RECORDS:
                raise too_many
            games.append((where, read_timed(parsed, unsettled_last_hand=True)))
        except RecordRefusal as refusal:
            raise BatchProblem(where, refusal.said, refusal) from None
    return Batch(games, roster, defaults)


@dataclass(frozen=True)
class LeftOutGroup:
    """Games of a batch that leave out the same house rules, which take the same values: where
    each is in the batch with its players, their preset's title, and the rules (as the
    single-game import lists them)."""

    games: list[tuple[Message | str, Listed]]
    preset: Message | str
    rules: list[LeftOut]


def left_out_groups(batch: Batch) -> list[LeftOutGroup]:
    """The house rules each game of ``batch`` leaves out and the values they will take (its
    preset's today), games alike grouped, in the batch's order; none when every record names
    them all (a club's or a game's export does)."""
    groups: dict[tuple[str, tuple[tuple[str, str], ...]], LeftOutGroup] = {}
    for where, timed in batch.games:
        setup = timed.game.setup
        rules = left_out_rules(setup)
        if not rules:
            continue
        key = (setup.preset, tuple((rule.name, rule.value) for rule in rules))
        group = groups.setdefault(key, LeftOutGroup([], PRESET_TITLES[setup.preset], rules))
        group.games.append((where, say_list(list(setup.players))))
    return list(groups.values())


def hold(data: bytes) -> str:
    """A batch to carry in the page that lists what its records leave out, imported when the
    table confirms: compressed (a club's JSON Lines shrinks about tenfold, a zip stays as it
    is), so it fits the import's body limit again, and read as a new upload is."""
    return base64.b64encode(zlib.compress(data)).decode("ascii")


def unhold(text: str, most: int) -> bytes:
    """The batch :func:`hold` carried, at most ``most`` bytes once unpacked."""
    try:
        unpacker = zlib.decompressobj()
        data = unpacker.decompress(base64.b64decode(text, validate=True), most)
        if unpacker.unconsumed_tail or not unpacker.eof:
            raise ValueError("too large or cut short")
    except (ValueError, zlib.error):
        raise BatchProblem(
            say("the batch"), say("it was changed on its way back: choose the records again.")
        ) from None
    return data
