"""The project's tests: ``rules`` (the engine, without Flask), ``web`` (the app through its test
client), ``browser`` (Chromium against a live server), and ``support``, what they share with
``bench/`` and ``tools/``."""
