"""Clubs: groups that play together week after week, with a roster, history and standings.

``keeping`` reads and changes clubs in the database, ``pages`` is the blueprint (its
``init_app`` registers it), ``batch`` reads several records at once, ``exports`` writes a
club's CSV and JSON Lines.
"""
