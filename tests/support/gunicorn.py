"""gunicorn serving the app on a free port of 127.0.0.1, in its own process group, and plain
HTTP requests to it: the server as a club runs it, for the tests that need a real one."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from scorekeeper.rules import Game
from scorekeeper.rules.record import write_record

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def request(
    port: int, method: str, path: str, body: bytes = b"", content_type: str = ""
) -> tuple[int, str, dict[str, str]]:
    """One request on a new connection: its status, body and headers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    headers = {"Content-Type": content_type or "application/x-www-form-urlencoded"}
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read().decode(), dict(response.getheaders())
    finally:
        connection.close()


class Gunicorn:
    """gunicorn in its own process group (so that SIGKILL reaches every worker at once) on
    ``database``, with CSRF and rate limits off, ``options`` for gunicorn itself, and
    ``settings`` for the app (``SCOREKEEPER_`` names and their values)."""

    def __init__(
        self,
        database: str,
        *options: str,
        settings: dict[str, str] | None = None,
        log: Path | None = None,
    ) -> None:
        self.port = free_port()
        self.database = database
        self.options = options
        self.settings = settings or {}
        self.process: subprocess.Popen[bytes] | None = None
        self.log = log
        """The file the server's output goes to, if any (else nowhere)."""

    def command(self) -> list[str]:
        """The command that starts the server."""
        return [
            sys.executable, "-m", "gunicorn", *self.options,
            "--bind", f"127.0.0.1:{self.port}", "app:create_app()",
        ]  # fmt: skip

    def start(self) -> None:
        """Start gunicorn and wait until it answers."""
        env = {
            **os.environ,
            "DATABASE_URL": self.database,
            "SCOREKEEPER_SECRET_KEY": "gunicorn-test",
            "SCOREKEEPER_WTF_CSRF_ENABLED": "false",
            "SCOREKEEPER_RATELIMIT_ENABLED": "false",
            **self.settings,
        }
        with open(self.log or os.devnull, "wb") as output:
            self.process = subprocess.Popen(
                self.command(),
                cwd=ROOT,
                env=env,
                stdout=output,
                stderr=output,
                start_new_session=True,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                request(self.port, "GET", "/games/new")
                return
            except OSError:
                assert self.process.poll() is None, "gunicorn exited"
                time.sleep(0.1)
        raise AssertionError("gunicorn did not answer within 30 s")

    def stop(self) -> str:
        """Stop the server as Ctrl-C does (SIGINT to every process), and what it printed."""
        assert self.process is not None and self.log is not None
        os.killpg(self.process.pid, signal.SIGINT)
        self.process.wait(timeout=20)
        return self.log.read_text()

    def kill(self) -> None:
        """SIGKILL the master and every worker: nothing gets to finish what it was writing."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


class TableServe(Gunicorn):
    """What ``make run`` starts: ``flask --app app serve``, on loopback alone."""

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "flask", "--app", "app", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--no-qr",
        ]  # fmt: skip


def form(fields: dict[str, str]) -> bytes:
    """An urlencoded form body, as a browser sends an entry."""
    return "&".join(f"{name}={value.replace(' ', '+')}" for name, value in fields.items()).encode()


def import_game(port: int, game: Game) -> str:
    """Import ``game`` as the import form sends a pasted record; the new game's edit key."""
    boundary = "scorekeeperboundary"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n'.encode()
        + json.dumps(write_record(game, every_rule=True)).encode()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    content = f"multipart/form-data; boundary={boundary}"
    status, _, headers = request(port, "POST", "/games/import", body, content)
    assert status == 303, status
    found = re.match(r"/games/([A-Za-z0-9_-]{22})$", headers["Location"])
    assert found, headers["Location"]
    return found.group(1)
