"""The site around the referee: a room per area, in layers that only look down.

From the bottom up:

- **leaves** (``languages``, ``htmx``, ``routes``, ``bounded``, ``rendered``,
  ``rendered_files``, ``forms``, ``drawing/``, ``network``, ``streaming``): the site's words,
  answering htmx and plain browsers alike, what each route is (said where it is declared, read
  by the site-wide concerns), the one hand-built cache and the pages kept in it once per
  version (and shared by a server's workers as files), the forms' common base, the pictures
  (dominoes, the layout, charts, the cribbage board), this machine's address on the local
  network, and how an event stream is held open. They import the referee and each other, no
  room above.
- **data** (``data/``): the database, the games and clubs stores, the replay cache, and the
  doors (keys, what a browser remembers). Below every page.
- **areas**: ``table/`` (My games, a new game and import, the table and its entries,
  rematch, deleting), ``sharing`` (the share panel, the watch link and the live view),
  ``paper`` (the rulebook, the log, the score sheets), ``clubs/`` and ``nights/`` (a club's
  nights: rounds, seats, standings). An area never imports
  another, except through the one seam: the ``table`` package itself (its ``__init__``).
- **site** (``site/``): site-wide concerns (security headers, rate limits, compression,
  error pages, refused forms, the PWA, times, the command line).

``app.create_app`` attaches every room the same way, by its ``init_app(app)``.
``tests/rules/test_module_structure.py`` reads :data:`LAYERS` and :data:`SEAMS` and fails on
an import that runs back up, from one area into another, or round a circle.
"""

LAYERS = (
    (
        "languages",
        "htmx",
        "routes",
        "bounded",
        "rendered",
        "rendered_files",
        "forms",
        "drawing",
        "network",
        "streaming",
    ),
    ("data",),
    ("table", "sharing", "paper", "clubs", "nights"),
    ("site",),
)
"""The rooms of ``scorekeeper.web``, bottom layer first. A room imports rooms of its own
layer or below; an area (the third layer) imports another area only through its seam."""
AREAS = LAYERS[2]
"""The rooms of the areas' layer, which do not import each other."""
SEAMS = ("scorekeeper.web.table",)
"""The one module through which an area may use another: the table package itself."""
