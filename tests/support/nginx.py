"""nginx in front of a server on a free port of 127.0.0.1, configured with the README's
hosting recipe as written: its main-context lines and its ``location`` block."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.gunicorn import free_port, request

README = Path(__file__).resolve().parents[2] / "README.md"
INSTALLED = shutil.which("nginx") is not None


def _block(after: str) -> str:
    """The first code block of the README after the words ``after``."""
    text = README.read_text(encoding="utf-8").split(after, 1)[1]
    return text.split("```", 2)[1]


def readme_server_lines() -> str:
    """The nginx lines the README's hosting section gives inside a ``server`` block."""
    return _block("With nginx, inside the `server` block that has the certificate:")


def readme_main_lines() -> str:
    """The lines the README gives for nginx's main context (connections, descriptors)."""
    return _block("In nginx's main context")


@contextmanager
def nginx(folder: Path, upstream: int) -> Iterator[int]:
    """nginx with the README's lines, passing to ``upstream``, its files in ``folder``; its
    port, once it answers."""
    port = free_port()
    server = readme_server_lines().replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
    temp = " ".join(
        f"{kind}_temp_path {folder}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (folder / "nginx.conf").write_text(
        f"worker_processes 1; pid {folder}/nginx.pid; error_log {folder}/error.log;\n"
        f"{readme_main_lines()}\n"
        f"http {{ access_log off; {temp} server {{ listen 127.0.0.1:{port}; {server} }} }}"
    )
    command = ["nginx", "-c", str(folder / "nginx.conf"), "-g", "daemon off;"]
    if os.geteuid() == 0:
        command[-1] = "daemon off; user root;"
    process = subprocess.Popen(command, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                request(port, "GET", "/rules")
                break
            except OSError:
                assert process.poll() is None, process.stderr.read() if process.stderr else ""
                assert time.monotonic() < deadline, "nginx did not answer"
                time.sleep(0.1)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGQUIT)
        process.wait(timeout=10)
