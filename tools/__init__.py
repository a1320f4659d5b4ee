"""Tools that regenerate committed files (icons, screenshots). Run each from the repository root
as a module, e.g. ``.venv/bin/python -m tools.screenshots``, so that it imports ``tests.support``."""
