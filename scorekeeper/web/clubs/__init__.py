"""Clubs: groups that play together week after week, with a roster, history and standings.

``pages`` is the blueprint (its ``init_app`` registers it), ``forms`` its forms, ``batch``
reads several records at once, ``exports`` writes a club's CSV and JSON Lines. The clubs in
the database (keys, roster, games and their facts) are ``scorekeeper.web.data.clubs``.
"""
