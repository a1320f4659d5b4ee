"""Rendered pages shared by every worker process of one server, as files: behind each
process's own kept pages (rendered.py), so that a change is rendered once for the whole
server, not once in each worker that holds a phone following it.

Why files: the workers of one server (gunicorn's, on one machine) share its instance folder
and nothing else but the database; a page is 35-70 KB, written once per version and read by
each other worker once (then kept in its memory). Reading one costs far less than rendering it.

The layout: ``<instance>/rendered/<space>/<page>/<version>.html``, where

- ``space`` names this server's run: the database, the code (the site's templates and
  modules, by their sizes and times) and the server process the workers were started by (the
  gunicorn master, by its id and start time). Workers of another run, a restarted server or
  another database never read these pages; spaces of runs gone are removed.
- ``page`` is a digest of the page's key (rendered.py's: template, door, game key, language,
  what the phone picked), when the key is made of plain values whose text is the same in
  every process (strings, numbers, None, dataclasses of them); other keys are not shared.

How one render serves every worker: the first to miss a page takes a **claim**
(``<version>.claim``, created with ``O_EXCL``: exactly one process gets it), renders, writes the
text to a temporary file and renames it into place (a reader sees the whole file or none),
then drops the claim. The others, finding the claim, look for the file every few
milliseconds and read it; if it does not come within a couple of seconds, or the claim is
older than a render could take (its process died), they render for themselves. Each file
begins with a header naming its version, length and SHA-256, checked on every read: a file cut
short (a machine that stopped in the middle of the write) or of another version is never
served.

Only pages that carry no CSRF token are shared (a watch link's, a board's): a page with a
token's mark is its process's own (rendered.py fills each request's token into it), and its
file says only "private" so that the others stop waiting and render their own.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import os
import secrets
import shutil
import time
from collections.abc import Hashable
from pathlib import Path

MAGIC = b"scorekeeper-rendered/1"
PRIVATE = "private"
"""What :meth:`Files.read` answers for a page that is not shared (it carries a CSRF token)."""
WAIT = 2.0
"""Seconds a process waits for another's render of the same page, at most."""
STALE = 10.0
"""Seconds after which a claim is taken to be a dead process's (a render takes milliseconds)."""
POLL = 0.005
"""Seconds between two looks for the file another process is rendering."""
SWEEP_EVERY = 200
"""Pages written by a process between two sweeps of the folder."""
TIDY_EVERY = 16
"""Pages written by a process between two looks through a page's folder."""
SPACE_IDLE = 3600.0
"""Seconds after which a space nobody writes to (a server run gone) is removed."""


class Files:
    """The shared pages of one server run, at most ``capacity`` pages (each its last versions)."""

    def __init__(self, folder: Path, space: str, capacity: int) -> None:
        self.root = folder
        self.folder = folder / space
        self.capacity = capacity
        self.written = 0
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._sweep_spaces()

    # -- names -------------------------------------------------------------------------------

    def page(self, key: Hashable) -> str | None:
        """The page's name for ``key``, or None when the key cannot be named alike in every
        process."""
        said = _stable(key)
        return None if said is None else hashlib.sha256(said.encode()).hexdigest()[:32]

    def _path(self, page: str, version: int, suffix: str) -> Path:
        return self.folder / page / f"{version}.{suffix}"

    # -- reading -----------------------------------------------------------------------------

    def read(self, page: str, version: int) -> tuple[int, str] | str | None:
        """The page at ``version`` as another process wrote it (the version it shows, and its
        text), :data:`PRIVATE`, or None when there is no whole file of it."""
        try:
            data = self._path(page, version, "html").read_bytes()
        except OSError:
            return None
        head, _, body = data.partition(b"\n")
        fields = head.split(b" ")
        try:
            if fields[0] != MAGIC:
                return None
            shown = int(fields[1])
            if fields[2] == PRIVATE.encode():
                return PRIVATE if shown >= version else None
            length, digest = int(fields[2]), fields[3].decode()
        except (IndexError, ValueError, UnicodeDecodeError):
            return None
        if shown < version or len(body) != length or hashlib.sha256(body).hexdigest() != digest:
            return None
        return shown, body.decode()

    def wait_or_claim(self, page: str, version: int) -> tuple[int, str] | bool:
        """The page at ``version`` if another process renders it; else True when this process
        now holds the claim to render it (it must :meth:`release` it), False when it should
        render for itself alone (a private page, a render that did not come)."""
        deadline = time.monotonic() + WAIT
        claim = self._path(page, version, "claim")
        while True:
            found = self.read(page, version)
            if found == PRIVATE:
                return False
            if isinstance(found, tuple):
                return found
            if self._claim(claim):
                found = self.read(page, version)  # written between the look and the claim
                if isinstance(found, tuple):
                    self.release(page, version)
                    return found
                return True
            if _age(claim) > STALE:
                claim.unlink(missing_ok=True)  # its process died: take it over
                continue
            if time.monotonic() > deadline:
                return False
            time.sleep(POLL)  # gevent's, under the gevent worker: others run meanwhile

    def _claim(self, claim: Path) -> bool:
        try:
            os.close(os.open(claim, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            return False
        except FileNotFoundError:  # the page's folder is new (or swept)
            claim.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            return self._claim(claim)
        return True

    def release(self, page: str, version: int) -> None:
        """Drop this process's claim on the page at ``version``."""
        self._path(page, version, "claim").unlink(missing_ok=True)

    # -- writing -----------------------------------------------------------------------------

    def write(self, page: str, versions: set[int], shown: int, text: str | None) -> None:
        """Write the page showing ``shown`` under each of ``versions`` (asked and shown), whole
        or not at all; ``text`` None: a private page, not shared."""
        if text is None:
            data = b"%s %d %s\n" % (MAGIC, shown, PRIVATE.encode())
        else:
            body = text.encode()
            digest = hashlib.sha256(body).hexdigest().encode()
            data = b"%s %d %d %s\n" % (MAGIC, shown, len(body), digest) + body
        folder = self.folder / page
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        for version in versions:
            temporary = folder / f".{version}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "wb") as out:
                out.write(data)
            os.replace(temporary, self._path(page, version, "html"))
        # The version before the one before goes at once (one unlink); a look through the
        # page's whole folder, for versions skipped and dead processes' leavings, now and then.
        self._path(page, min(versions) - 2, "html").unlink(missing_ok=True)
        if self.written % TIDY_EVERY == 0:
            self._forget_older(folder, min(versions))
        self.written += 1
        if self.written % SWEEP_EVERY == 0:
            self.sweep()

    def _forget_older(self, folder: Path, version: int) -> None:
        """Remove the page's versions before the one before ``version`` (a process still
        asking for the one before finds it), and what dead processes left."""
        for entry in _listed(folder):
            name, _, suffix = entry.name.rpartition(".")
            older = suffix == "html" and name.isdigit() and int(name) < version - 1
            if older or (suffix in ("tmp", "claim") and _age(entry) > STALE):
                entry.unlink(missing_ok=True)

    def sweep(self) -> None:
        """Keep the ``capacity`` pages most recently written; remove the rest."""
        pages = [(_age(entry), entry) for entry in _listed(self.folder) if entry.is_dir()]
        pages.sort(key=lambda aged: aged[0])
        for _, entry in pages[self.capacity :]:
            shutil.rmtree(entry, ignore_errors=True)

    def _sweep_spaces(self) -> None:
        """Remove the spaces of server runs that nobody has written to for an hour."""
        for entry in _listed(self.root):
            if entry != self.folder and entry.is_dir() and _age(entry) > SPACE_IDLE:
                shutil.rmtree(entry, ignore_errors=True)


def _listed(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _age(path: Path) -> float:
    """Seconds since ``path`` last changed (0 when it is gone: nothing to take over)."""
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0


def _stable(key: object) -> str | None:
    """``key`` as text that every process writes alike, or None when it holds anything else
    (an object whose text could name its address)."""
    if key is None or isinstance(key, bool | int | str):
        return repr(key)
    if isinstance(key, enum.Enum):
        return f"{type(key).__qualname__}.{key.name}"
    if isinstance(key, tuple):
        parts = [_stable(part) for part in key]
        return None if None in parts else "(" + ",".join(parts) + ")"  # type: ignore[arg-type]
    if dataclasses.is_dataclass(key) and not isinstance(key, type):
        fields = [_stable(getattr(key, found.name)) for found in dataclasses.fields(key)]
        if None in fields:
            return None
        return f"{type(key).__module__}.{type(key).__qualname__}(" + ",".join(fields) + ")"  # type: ignore[arg-type]
    return None


def code(sources: list[Path]) -> str:
    """A digest of the code under ``sources`` (its modules, templates and catalogs), by each
    file's size and time."""
    said = hashlib.sha256()
    for source in sources:
        for path in sorted(source.rglob("*")):
            if path.suffix in (".py", ".html", ".mo", ".po") and path.is_file():
                found = path.stat()
                said.update(f"{path}:{found.st_size}:{found.st_mtime_ns}\n".encode())
    return said.hexdigest()


def space(database: str, code: str, parent: int) -> str:
    """The name of a server run's pages: its database, its code (:func:`code`) and the
    process that started its workers (``parent``, by its id and start time)."""
    try:
        # Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot.
        started = Path(f"/proc/{parent}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        started = "?"
    said = f"{database}\n{code}\n{parent}:{started}"
    return hashlib.sha256(said.encode()).hexdigest()[:16]
