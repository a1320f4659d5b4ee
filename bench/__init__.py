"""Benchmarks: figures, not tests. Run each from the repository root as a module, e.g.
``.venv/bin/python -m bench.load``, so that it imports ``tests.support`` (see bench/README.md)."""
