"""gunicorn's settings file, which it reads from the directory it is started in (the
repository's root, where the README's hosting recipe starts it). The recipe's command line
chooses the worker; this file sets how each worker's Python collects garbage.

A worker keeps every live table's game replayed in memory (``LIVE_GAMES``): some 2,000 small
objects a long game, half a million in a worker serving 400 tables. Python's cycle collector
looks at every one of them in each full collection, which stopped every request of the worker
for 0.1-0.3 s every few seconds at that load, and it starts one whenever a quarter more
objects have lived through its quicker collections, which every request's own passing objects
did, caught half-way (a collection ran every 700 new objects: several times a request).

So, once the worker has loaded the app:

- what it loaded (modules, templates, the app: never garbage) is frozen, out of every later
  collection;
- the young collection runs every 50,000 new objects instead of 700: a request's own objects
  are mostly gone by then and are not kept as long-lived, so full collections come rarely
  (the memory each worker holds grows by the objects waiting, a few megabytes at most).

Reference counting frees everything that is not in a cycle at once, as before.
``bench/load.py`` shows the figures (bench/README.md, issue 20's third stop, "A worker's
garbage").
"""

import gc

from gunicorn.workers.base import Worker

from scorekeeper.web.site.logs import InvalidRequestLines

limit_request_line = 8190
"""The longest request line gunicorn takes: what nginx passes on (its 8 KB buffers), so that
the app answers every request that reaches it, with the site's headers, instead of gunicorn's
own 414 page (above the 4,094 bytes of gunicorn's default), which carries none."""

YOUNG_COLLECTION_EVERY = 50_000
"""New objects between two young collections (Python's default: 700)."""
MIDDLE_COLLECTION_EVERY = 50
"""Young collections between two of the middle generation (default 10)."""
FULL_COLLECTION_EVERY = 10
"""Middle collections between two full ones, at most (the default; Python also waits for a
quarter more long-lived objects)."""


def post_worker_init(worker: Worker) -> None:
    """After the worker has loaded the app, before it serves: freeze and tune the collector;
    bound the lines its log gives to requests it cannot parse (scorekeeper/web/site/logs.py)."""
    worker.log.error_log.addFilter(InvalidRequestLines())
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, MIDDLE_COLLECTION_EVERY, FULL_COLLECTION_EVERY)
