"""The game itself, rule by rule, as the rules pages state it, and where each page's links land.

:data:`BASIC_RULES` holds each rule a table argues about (docs/rules.md sections 4 to 8, and 10
for the anchors), with a worked example, as a paragraph a refusal (:func:`refusal_anchor`) and
the log's Why? (:func:`basics_of`) link to; :data:`SETTLEMENT_RULES` each preset's settlement
and :data:`WINNING_RULE` winning. The anchor ids of every entry of the rules pages are made
here too, so that a link and its target are spelled in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules.messages import Message, say
from scorekeeper.rules.options import Preset


def rule_anchor(rule: str) -> str:
    """The anchor id of a refusal rule on the rules page: "rule-match"."""
    return f"rule-{rule}"


def house_anchor(name: str) -> str:
    """The anchor id of a house rule on the rules page: "house-spinners"."""
    return f"house-{name}"


def preset_anchor(preset: str) -> str:
    """The anchor id of a preset on the rules page: "preset-fives-up"."""
    return f"preset-{preset}"


@dataclass(frozen=True)
class BasicRule:
    """A rule of the game itself, as the rules pages state it: ``anchor`` (``basic-count``),
    its title, the rule in plain words, a worked example, and the rule ids of the refusals
    that are about it (their links land here)."""

    name: str
    title: Message
    text: Message
    example: Message
    refusals: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        """The paragraph's id on the rules pages: "basic-count"."""
        return basic_anchor(self.name)


def basic_anchor(name: str) -> str:
    """The anchor id of a basic rule on the rules pages: "basic-count"."""
    return f"basic-{name}"


BASIC_RULES: tuple[BasicRule, ...] = (
    BasicRule(
        "count",
        say("The count: adding up the open ends"),
        say(
            "After every play, add up the numbers showing on the open ends of the layout: the "
            "free half of the tile at the tip of each arm. When that total is 5, 10, 15 or any "
            "other multiple of five, the side of the player who made it scores it at once, as "
            "it is made, not at the end of the hand. Any other total scores nothing, and so do "
            "draws and passes."
        ),
        say(
            "Four open ends showing 5, 5, 6 and 4 count 20, and the player's side scores 20. "
            "Ends showing 2, 5, 3 and 5 count 15: 15 points. The next play leaves 2, 5, 3 and 1: "
            "11, which scores nothing."
        ),
    ),
    BasicRule(
        "doubles",
        say("Doubles lie crosswise and count both halves"),
        say(
            "A double is laid across the line. While nothing is played on its far side it "
            "sits at the tip of its arm, and that end counts both of its halves. A layout of "
            "one tile counts that tile once, so a double led alone counts its two halves."
        ),
        say(
            "Leading 5-5 alone counts 5 + 5 = 10, and the leader scores 10 straight away. With "
            "3 showing at one end and 4-4 lying crosswise at the other, the count is 3 + 8 = 11."
        ),
    ),
    BasicRule(
        "spinner",
        say("The spinner: sides first, then ends"),
        say(
            "The first double laid is the spinner (house rule spinners can change which doubles "
            "are, and spinner_counts what a spinner counts). Four tiles can go against it: the "
            "first two on its sides, which carry the line on, and only then two more on its "
            "ends, which open the new arms N and S. "
            "While fewer than two sides are covered, the spinner counts both its halves at the "
            "tip; once both sides are covered it counts nothing itself, and an arm that has "
            "opened but holds no tile counts nothing either."
        ),
        say(
            "Lead 6-6: 12. Then 6-3 on one side: 3 + 12 = 15, which scores 15. Then 6-1 on the "
            "other side: 3 + 1 = 4, since the spinner and its two empty ends now count nothing. "
            "Then 6-4 on N: 3 + 1 + 4 = 8; then 6-2 on S: 3 + 1 + 4 + 2 = 10, which scores 10."
        ),
        refusals=("spinner-sides",),
    ),
    BasicRule(
        "rounding",
        say("Rounding to the nearest five"),
        say(
            "Pips still held at the end of a hand are rounded to the nearest multiple of five "
            "before they are scored: 1 and 2 go down, 3 and 4 go up. A pip total is a whole "
            "number, so it is never halfway."
        ),
        say(
            "A hand of 7 pips rounds to 5, and a hand of 8 pips rounds to 10. Likewise 12 "
            "rounds to 10, 13 to 15, 2 to 0 and 3 to 5."
        ),
    ),
    BasicRule(
        "drawing",
        say("Drawing until a tile fits"),
        say(
            "A player with no tile that fits an open end draws from the boneyard, one tile at "
            "a time, until one fits, and plays that tile at once. When the boneyard runs out "
            "first (or holds only the tiles a house rule keeps in reserve), the player passes."
        ),
        say(
            "The ends show 6 and 3 and Bob holds 5-1 and 4-2. He draws 2-0, which does not "
            "fit, then 6-2, which does, and he lays 6-2 on the 6 in the same turn: 2 + 3 = 5, "
            "which scores 5."
        ),
        refusals=("draw-empty",),
    ),
    BasicRule(
        "passing",
        say("Passing"),
        say(
            "A player passes only when no tile fits and nothing more can be drawn; the turn "
            "then moves to the next seat. A pass while tiles can still be drawn is refused."
        ),
        say(
            "The boneyard is empty and the ends show 6 and 6. Ann holds 4-1 and 3-2, so she "
            "passes, and Bob plays. Had two tiles still been in the boneyard, Ann would have "
            "had to draw instead."
        ),
        refusals=("pass-boneyard",),
    ),
    BasicRule(
        "blocked",
        say("A blocked hand, and who wins it"),
        say(
            "When nobody can play and nothing can be drawn, every player passes in turn and the "
            "hand is blocked: nobody dominoed. Where the winner of the hand collects, the "
            "player holding the fewest pips wins it and collects as if they had dominoed, less "
            "their own pips; if two or more tie for the fewest, nobody collects (unless house "
            "rule blocked_tie says to share). Where each player deducts their own pips, "
            "everyone deducts them as after any hand."
        ),
        say(
            "Fives-Up, blocked: Ann holds 4 pips, Bob 13. Ann holds fewer, so she wins the hand "
            "and collects 13 - 4 = 9, rounded to 10, which in fives is 2. Had both held 4, "
            "nobody would have collected."
        ),
    ),
    BasicRule(
        "leader",
        say("Who leads the next hand"),
        say(
            "The player who dominoed in a hand leads the next one, with any tile. After a "
            "blocked hand nobody dominoed, so the next leader is chosen again the way the first "
            "one was (house rule lead)."
        ),
        say(
            "Bob plays his last tile in hand 2: Bob leads hand 3. Hand 3 is blocked, so the "
            "leader of hand 4 is drawn by lot again in All Fives, and by drawing a tile each, "
            "highest leading, in Fives-Up and Totally Fives."
        ),
        refusals=("lead",),
    ),
)
"""The rules of the game itself, in the order a hand meets them (docs/rules.md 10)."""

SETTLEMENT_RULES: dict[Preset, BasicRule] = {
    "all-fives": BasicRule(
        "settle-all-fives",
        say("End of a hand in All Fives: each player deducts their own pips"),
        say(
            "When a player dominoes or the hand is blocked, every player still holding tiles "
            "adds up their pips, rounds the total to the nearest five and takes it off their "
            "own side's score. Each player is rounded separately, nobody collects, and a score "
            "may go below zero."
        ),
        say(
            "Ann dominoes. Bob holds 7 pips and loses 5; Cy holds 8 and loses 10. Partners "
            "holding 3 and 3 lose 5 + 5 = 10 between them, not 6 rounded to 5."
        ),
    ),
    "fives-up": BasicRule(
        "settle-fives-up",
        say("End of a hand in Fives-Up: the winner collects, in fives"),
        say(
            "The winner of the hand (who dominoed, or in a blocked hand who holds the fewest "
            "pips) adds up the pips the other sides still hold, less their own, rounds that to "
            "the nearest five and divides it by 5: that is what their side scores. A partner's "
            "pips do not count."
        ),
        say(
            "Ann dominoes; her opponents still hold 26 pips. 26 rounds to 25, and 25 divided "
            "by 5 is 5: Ann scores 5. Had Ann not dominoed but won a blocked hand holding 4 "
            "pips, she would collect 26 - 4 = 22, rounded to 20, which is 4."
        ),
    ),
    "totally-fives": BasicRule(
        "settle-totally-fives",
        say("End of a hand in Totally Fives: the winner collects, in fives"),
        say(
            "As in Fives-Up: the winner of the hand scores the pips of the other players less "
            "their own, rounded to the nearest five and then divided by 5. Games are longer: "
            "200 to win."
        ),
        say(
            "Ann dominoes; Bob holds 14 pips and Cy 9. 14 + 9 = 23, rounded to 25, divided by "
            "5: Ann scores 5. In a blocked hand where Ann holds 20, Bob 14 and Cy 3, Cy wins "
            "it: 20 + 14 - 3 = 31, rounded to 30, divided by 5: Cy scores 6."
        ),
    ),
    "sniff": BasicRule(
        "settle-sniff",
        say("End of a hand in Sniff: the winner collects, in points"),
        say(
            "As in Fives-Up, the winner of the hand scores the pips of the other players less "
            "their own, rounded to the nearest five, but not divided: scores are kept in "
            "points. 200 to win."
        ),
        say(
            "Ann dominoes; Bob holds 14 pips and Cy 9. 14 + 9 = 23, rounded to 25: Ann scores "
            "25. In a blocked hand where Ann holds 20, Bob 14 and Cy 3, Cy wins it: "
            "20 + 14 - 3 = 31, rounded to 30: Cy scores 30."
        ),
    ),
}
"""Each preset's settlement in plain words, with the seeds' worked examples."""

WINNING_RULE = BasicRule(
    "winning",
    say("Winning: the first to reach the target"),
    say(
        "The game is won by the first side to reach the target (house rule target). When the "
        "target is checked decides what 'first' means. As most tables play (win_check: "
        "end-of-hand), it is checked once the hand is settled: a side that passes the target "
        "during a hand has not won yet, and the side highest at or above the target after the "
        "settlement wins; a tie for highest plays another hand. With win_check: immediate, it "
        "is also checked after every scoring play, and the first side to reach it wins at "
        "once: the hand stops there and is not settled."
    ),
    say(
        "All Fives, two players, to 250. Ann, on 245, plays a count of 10: 255. The hand goes "
        "on; Bob, on 240, scores 15: 255. Bob dominoes and Ann, holding 12 pips, loses 10: "
        "245. Bob, on 255, wins. With win_check: immediate, Ann would have won with her play "
        "at 255."
    ),
    refusals=("game-over",),
)
"""docs/rules.md 8: winning, and what win_check changes about "the first to reach"."""

BASIC_BY_RULE: dict[str, BasicRule] = {
    rule: basic for basic in (*BASIC_RULES, WINNING_RULE) for rule in basic.refusals
}
"""The basic rule a refusal is about, by its rule id (only those that are about one)."""
BASICS_FOR_REFUSAL: dict[str, str] = {rule: basic.anchor for rule, basic in BASIC_BY_RULE.items()}
"""Where a refusal's link lands when the refusal is about a basic rule: "basic-passing"."""


def refusal_anchor(rule: str) -> str:
    """Where a refusal naming ``rule`` links on the rules pages: the basic rule it is about
    ("basic-passing" for ``pass-boneyard``), else its rule id's entry ("rule-match")."""
    return BASICS_FOR_REFUSAL.get(rule, rule_anchor(rule))


ADJUSTMENTS_ANCHOR = "adjustments"
"""The id of the corrections' section on the rules pages."""


def basics_of(
    kind: str,
    preset: Preset,
    *,
    double: bool = False,
    spinner_end: bool = False,
    blocked: bool = False,
    decided: bool = False,
) -> tuple[str, ...]:
    """The anchors of the rules a log entry of ``kind`` is about, for its Why? to link to: a
    play's count (a ``double``'s; the spinner's for a play that may be one or goes on one of
    its arms, ``spinner_end``), a draw, a pass, a new hand's leader, a
    settlement (the preset's, the rounding, a blocked hand's), the win it ``decided``."""
    anchors: list[str] = []
    if kind == "play":
        anchors.append(basic_anchor("count"))
        if double:
            anchors.append(basic_anchor("doubles"))
        if spinner_end:
            anchors.append(basic_anchor("spinner"))
    elif kind in ("draw", "pass"):
        anchors.append(basic_anchor("drawing" if kind == "draw" else "passing"))
    elif kind == "new-hand":
        anchors.append(basic_anchor("leader"))
    elif kind == "settle":
        if blocked:
            anchors.append(basic_anchor("blocked"))
        if preset in SETTLEMENT_RULES:
            anchors.append(SETTLEMENT_RULES[preset].anchor)
        anchors.append(basic_anchor("rounding"))
    elif kind == "muggins":
        anchors.append(house_anchor("muggins"))
    elif kind == "guess":
        anchors.append(house_anchor("practice"))
    elif kind == "adjust":
        anchors.append(ADJUSTMENTS_ANCHOR)
    if decided:
        anchors.append(WINNING_RULE.anchor)
    return tuple(anchors)
