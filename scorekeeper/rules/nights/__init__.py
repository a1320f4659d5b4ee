"""Club nights: a night's format, the seats of each round and the night's standings.

Tournament rules are rules: pure Python, no web framework and no database, so a whole night can
be seated and scored in a test (and, later, replayed from its record). ``format`` is what the
director chooses once, ``seating`` draws each round's tables from the night so far and the
round's seed, ``standings`` adds up the night from its games' facts.
"""
