"""Club nights: a director's night of rounds, seats and standings, as the club's own pages.

``pages`` is the blueprint (its ``init_app`` registers it), ``forms`` its forms. A night is
reached only under its club's edit link. The night in the database is
``scorekeeper.web.data.nights``; its rules (seating, standings) ``scorekeeper.rules.nights``.
"""
