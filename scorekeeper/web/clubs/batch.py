"""Several game records at once: a JSON Lines file, a zip of record files, or one record.

A batch is read whole before anything is stored: every record is checked by the referee,
and the first one refused stops the import with its place in the batch (which line, which
file) and why, so a batch is imported entirely or not at all.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass

from scorekeeper.rules import Game, RecordRefusal
from scorekeeper.rules.record import load_record

MAX_RECORDS = 500
"""The most records one batch may hold."""
MAX_UNZIPPED = 16 * 1024 * 1024
"""The most bytes a zip's records may hold once unpacked (a zip bomb is refused unread)."""
ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class BatchProblem(Exception):
    """Why a batch was refused: where (``"line 3"``, ``"games/b.json"``) and the refusal."""

    where: str
    message: str
    refusal: RecordRefusal | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def _from_zip(data: bytes) -> list[tuple[str, bytes]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if not m.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        raise BatchProblem("the zip file", f"it cannot be read ({error}).") from None
    records = [m for m in members if m.filename.lower().endswith((".json", ".jsonl"))]
    if not records:
        raise BatchProblem("the zip file", "it holds no .json record files.")
    if len(records) > MAX_RECORDS:
        raise BatchProblem("the zip file", f"it holds more than {MAX_RECORDS} records.")
    if sum(m.file_size for m in records) > MAX_UNZIPPED:
        raise BatchProblem("the zip file", "its records are too large once unpacked.")
    texts = []
    for member in sorted(records, key=lambda m: m.filename):
        try:
            texts.append((member.filename, archive.read(member)))
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError) as error:
            raise BatchProblem(member.filename, f"it cannot be unpacked ({error}).") from None
    return texts


def _records(content: bytes) -> list[tuple[str, bytes]]:
    """One record (a JSON object, however it is laid out), else one record per non-empty
    line (JSON Lines), each named by its line number."""
    try:
        json.loads(content)
    except (ValueError, RecursionError):
        pass
    else:
        return [("", content)]
    return [
        (f"line {number}", line)
        for number, line in enumerate(content.splitlines(), 1)
        if line.strip()
    ]


def read_batch(data: bytes) -> list[tuple[str, Game]]:
    """Every game in ``data`` (zip, JSON Lines or one record) with where it is in the batch
    (``"line 3"``, ``"games/b.json"``), or the first BatchProblem."""
    if not data.strip():
        raise BatchProblem("the file", "it is empty: choose a file or paste records.")
    files = _from_zip(data) if data.startswith(ZIP_MAGIC) else [("", data)]
    entries = []
    for name, content in files:
        for where, text in _records(content):
            entries.append(
                (", ".join(part for part in (name, where) if part) or "the record", text)
            )
    if len(entries) > MAX_RECORDS:
        raise BatchProblem("the batch", f"it holds more than {MAX_RECORDS} records.")
    games = []
    for where, text in entries:
        try:
            games.append((where, load_record(text, unsettled_last_hand=True)))
        except RecordRefusal as refusal:
            raise BatchProblem(where, refusal.message, refusal) from None
    return games
