"""What the browser tests share: the live server."""

from __future__ import annotations

import threading
from typing import Any

from werkzeug.serving import make_server


class LiveServer:
    """The app served on a free port of 127.0.0.1 in a background thread."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)
