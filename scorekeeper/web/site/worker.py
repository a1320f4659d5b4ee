"""The gunicorn worker ``flask serve`` runs: gunicorn's gevent worker, stopped by Ctrl-C
without a traceback.

gunicorn stops a worker on Ctrl-C (SIGINT, SIGQUIT) by raising SystemExit in a greenlet of
its own; when the worker's main greenlet has already finished by then, gevent reports it as
a failure, traceback and all, the last thing ``make run`` printed. This one ends the process
as that exit would, without it. The module imports gunicorn's worker alone: gunicorn loads it
before the worker starts, and the app must not be imported before gevent has patched.
"""

from __future__ import annotations

import os
import sys
from types import FrameType

import gevent
from gunicorn.workers.ggevent import GeventWorker


class TableWorker(GeventWorker):
    """gunicorn's gevent worker, whose quick stop ends the process quietly."""

    def handle_quit(self, sig: int, frame: FrameType | None) -> None:
        gevent.spawn(self._quit)  # out of the signal handler, as gunicorn's own

    def _quit(self) -> None:
        self.alive = False
        self.cfg.worker_int(self)
        gevent.sleep(0.1)  # as gunicorn's own: what was being written goes out
        self.log.info("Worker exiting (pid: %s)", self.pid)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
