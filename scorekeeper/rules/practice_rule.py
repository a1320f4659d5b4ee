"""House rule practice (docs/rules.md 8e), an entry of the registry's variations
(:data:`~scorekeeper.rules.options.VARIATIONS`), in a module of its own to keep the registry's
module short; what the rule does is in :mod:`scorekeeper.rules.practice`."""

from __future__ import annotations

from scorekeeper.rules.house_rule import YES_NO, HouseRule, OptionValue
from scorekeeper.rules.messages import say

PRACTICE = HouseRule(
    "practice",
    say("Practice: guess the count"),
    say(
        "A way to learn counting: each play's count is hidden until the table guesses "
        "it, then shown with right or wrong. The scores are what they would be anyway."
    ),
    {"all-fives": "no", "fives-up": "no", "totally-fives": "no", "sniff": "no"},
    choices=YES_NO,
    value_texts={
        "yes": say(
            "after each play one tap guesses its count; the log and the score sheet "
            "keep each player's counts guessed right"
        ),
        "no": say("every count is shown at once"),
    },
    example=say(
        "Ann leads 6-4 and the count is hidden. The table taps 10: right, the count is "
        "10 and Ann's side scores 10. Bob plays 4-3 on E: the ends are 6 and 3, and the "
        "table taps 10 again: wrong, 9 is no score. Ann has 1 count of 1 guessed right, "
        "Bob 0 of 1."
    ),
)
"""A way to learn counting: each play's count hidden until the table guesses it."""

SCORELESS: dict[str, OptionValue] = {"practice": "no"}
"""The house rules that change no score, each with its value in every preset: a record that
leaves one out means the same game whatever its value, so the import does not list it among
the rules a record leaves out, and an export (and with it a club's duplicate fingerprint)
names it only at another value: exports and fingerprints from before the rule existed stay
what they were."""
