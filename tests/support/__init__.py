"""What the tests share with the benchmarks (``bench/``) and the tools (``tools/``): Debian's
Chromium and how to launch it, the app on a live server, a simulated club table.

It lives under ``tests/`` rather than in ``scorekeeper`` because it is not part of the app: a
club server installs only ``scorekeeper`` and ``app.py`` (``pip install .``), and this needs
the test extra (Playwright). Run from the repository root, as ``.venv/bin/pytest`` and
``.venv/bin/python -m bench.load`` do, it imports as ``tests.support``.
"""
