"""docs/rules.md 8b, Muggins: calling the count, and an opponent's claim of a count called short.

Worked examples on the two-player domino hand of the helpers (all-fives, deal five-each,
spinner 6-6), whose events are, by number:

    1 Ann 6-6 (12)   2 Bob draws 3   3 Bob 6-3 W (15: 15)   4 Ann 6-1 E (4)   5 Bob 3-3 W (7)
    6 Ann 6-4 N (11)   7 Bob 1-0 E (10: 10)   8 Ann 6-5 S (15: 15)   9 Bob 3-2 W (11)
    10 Ann 5-5 S (16), Ann dominoes; Bob keeps 5-4 5-3 4-2 2-1 = 26 pips, rounded 25.

Without muggins (deduct-own): Ann 15, Bob 15 + 10 - 25 = 0. Every expected number below is
worked out from that and docs/rules.md 8a/8b, in the comment next to it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from scorekeeper.rules import Claim, Game, NewHand, Play, tile
from scorekeeper.rules.explain import explain, explain_all, explain_hand
from scorekeeper.rules.record import read_record, write_record
from tests.rules.helpers import (
    DUO_DOMINO_OPTIONS,
    QUAD,
    Entry,
    Record,
    adjust,
    amended,
    claim,
    draw,
    duo_domino,
    duo_domino_events,
    game_of,
    game_to,
    hand,
    passes,
    play,
    record,
    refused_unchanged,
    result_of,
    snapshot,
)

DATA = Path(__file__).resolve().parents[1] / "data"
MUGGINS = {"muggins": "yes"}
BOB_26 = {"Bob": ["5-4", "5-3", "4-2", "2-1"]}


def duo(
    called: dict[int, int] | None = None,
    after: dict[int, list[Entry]] | None = None,
    options: dict[str, Any] | None = None,
    settled: bool = True,
) -> Record:
    """The domino hand under muggins, settled with Bob's 26 unless ``settled`` is False."""
    return record(
        ["Ann", "Bob"],
        [hand("Ann", amended(duo_domino_events(), called, after), BOB_26 if settled else None)],
        options={**DUO_DOMINO_OPTIONS, **MUGGINS, **(options or {})},
    )


def refused(game: Game, event: Any, rule: str = "call") -> str:
    """The event is refused with ``rule`` (call unless given) and changes nothing."""
    return refused_unchanged(game, event, rule)


def without_calls(result: dict[str, Any]) -> dict[str, Any]:
    """A replay output with every play's ``called`` taken out."""
    out = copy.deepcopy(result)
    for h in out["hands"]:
        for p in h["plays"]:
            p.pop("called", None)
    return out


# -- a right call ----------------------------------------------------------------------------


def test_a_right_call_scores_as_usual_and_costs_nothing_more() -> None:
    """Bob calls 15 on his 6-3 (count 15) and 10 on his 1-0 (count 10); every other call is
    left out (called right). Scores as without muggins: Ann 15, Bob 15 + 10 - 25 = 0. The
    replay gives every play its call: the count's points, 0 where it scores nothing."""
    data = duo(called={3: 15, 7: 10})
    result = result_of(data)
    plain = result_of(duo_domino())
    assert result["scores"] == plain["scores"] == {"Ann": 15, "Bob": 0}
    assert [p["called"] for p in result["hands"][0]["plays"]] == [0, 15, 0, 0, 0, 10, 15, 0, 0]
    assert [p["points"] for p in result["hands"][0]["plays"]] == [0, 15, 0, 0, 0, 10, 15, 0, 0]
    assert without_calls(result) == plain
    assert all("claimed_by" not in p for p in result["hands"][0]["plays"])
    # Left out and given equal to the count are the same game.
    assert without_calls(result_of(duo())) == plain


def test_a_call_of_0_on_a_play_that_scores_nothing_is_right() -> None:
    """Ann's 6-1 counts 4 and scores nothing: a call of 0 is the right call."""
    result = result_of(duo(called={4: 0}))
    assert result["hands"][0]["plays"][2]["called"] == 0
    assert result["scores"] == {"Ann": 15, "Bob": 0}


# -- a call of 10 on a count of 15, and the opponent's claim ---------------------------------


def test_a_call_of_10_on_15_scores_nothing_and_the_opponents_claim_takes_15() -> None:
    """Bob's 6-3 counts 15, he calls 10: Bob scores nothing. Ann cries Muggins at once: Ann
    +15. Then Bob's 1-0 10, Ann's 6-5 15: Ann 15 + 15 = 30; Bob 10 - 25 = -15."""
    data = duo(called={3: 10}, after={3: [claim("Ann")]})
    missed = game_to(data, 3)
    assert missed.scores == [0, 0]
    scored = missed.hands[0].plays[-1]
    assert (scored.points, scored.called, scored.missed) == (0, 10, 15)
    claimed = game_to(data, 4)
    assert claimed.scores == [15, 0]  # Ann +15
    assert claimed.hands[0].plays[-1].claimed_by == 0
    assert claimed.hands[0].plays[-1].claimed == 15
    result = result_of(data)
    bob_63 = result["hands"][0]["plays"][1]
    assert bob_63 == {
        "player": "Bob",
        "tile": "6-3",
        "end": "W",
        "count": 15,
        "points": 0,
        "called": 10,
        "claimed_by": "Ann",
    }
    assert result["scores"] == {"Ann": 30, "Bob": -15}
    # A claim is not a turn: Ann, whose turn it was, plays next as before.
    assert claimed.hands[0].turn == 0
    # Claims count among the points from plays, not as an adjustment.
    assert claimed.play_points(claimed.hands[0]) == (15, 0)
    assert claimed.adjusted(claimed.hands[0]) == (0, 0)


def test_a_claim_with_get_in_scores_nothing_while_the_claimants_side_is_not_in() -> None:
    """get_in 20: Ann's claim of 15 < 20 does not get her in: 0. Bob's missed 15 did not get
    him in either (it scored nothing), so his 1-0 (10 < 20) scores 0, and so does Ann's 6-5
    (15 < 20). Only the settlement changes a score: Ann 0, Bob -25."""
    data = duo(called={3: 10}, after={3: [claim("Ann")]}, options={"get_in": 20})
    claimed = game_to(data, 4)
    assert claimed.scores == [0, 0]
    assert claimed.sides_in == [False, False]
    scored = claimed.hands[0].plays[-1]
    assert (scored.claimed_by, scored.claimed, scored.claim_voided) == (0, 0, "not-in")
    assert result_of(data)["scores"] == {"Ann": 0, "Bob": -25}


def test_a_claim_of_15_with_get_in_15_gets_the_claimants_side_in() -> None:
    """get_in 15: Ann's claim of 15 >= 15 gets her in and counts in full: Ann 15. Bob's 6-3
    scored nothing, so he is not in: his 1-0 (10 < 15) scores 0. Ann's 6-5: 15 + 15 = 30.
    Bob 0 - 25 = -25."""
    data = duo(called={3: 10}, after={3: [claim("Ann")]}, options={"get_in": 15})
    claimed = game_to(data, 4)
    assert claimed.scores == [15, 0]
    assert claimed.sides_in == [True, False]
    assert result_of(data)["scores"] == {"Ann": 30, "Bob": -25}


def test_a_claim_of_10_by_a_side_not_in_with_get_in_15_scores_nothing() -> None:
    """get_in 15: Bob calls 0 on his 1-0 (10); Ann, not in yet (her first 15 comes later),
    claims 10 < 15: 0. Bob's 15 got him in. Ann's 6-5 (15) gets her in: 15. Bob 15 - 25 =
    -10."""
    data = duo(called={7: 0}, after={7: [claim("Ann")]}, options={"get_in": 15})
    claimed = game_to(data, 8)
    assert claimed.scores == [0, 15]
    assert claimed.hands[0].plays[-1].claim_voided == "not-in"
    assert result_of(data)["scores"] == {"Ann": 15, "Bob": -10}


def test_a_claim_in_fives_scores_3() -> None:
    """units fives (target 250 / 5 = 50): Ann's claim of 15 scores 15 / 5 = 3. Bob's 1-0 2,
    Ann's 6-5 3: Ann 6. Bob 2 - 25 / 5 = 2 - 5 = -3."""
    data = duo(called={3: 10}, after={3: [claim("Ann")]}, options={"units": "fives"})
    assert game_to(data, 4).scores == [3, 0]
    assert result_of(data)["scores"] == {"Ann": 6, "Bob": -3}


def test_a_claim_that_would_pass_an_exact_target_scores_nothing() -> None:
    """exact_target, target 10: Ann on 0 claims 15: 15 > 10, it scores 0. Bob's 1-0 takes
    him from 0 to 10 exactly; Ann's 6-5 (15 > 10) scores 0. At the end of the hand Bob's 25
    are deducted: Bob -15, Ann 0; nobody is on the target."""
    data = duo(
        called={3: 10}, after={3: [claim("Ann")]}, options={"exact_target": "yes", "target": 10}
    )
    claimed = game_to(data, 4)
    assert claimed.scores == [0, 0]
    scored = claimed.hands[0].plays[-1]
    assert (scored.claimed_by, scored.claimed, scored.claim_voided) == (0, 0, "overshoot")
    why = explain(claimed, len(claimed.events) - 1)
    assert "total 15: 0 + 15 = 15 would pass 10" in [str(line) for line in why.lines][2]
    result = result_of(data)
    assert result["scores"] == {"Ann": 0, "Bob": -15}
    assert result["winner"] is None


def test_a_claim_that_reaches_an_exact_target_counts_and_wins_first() -> None:
    """exact_target, target 15, end-of-hand: Ann's claim takes her from 0 to 15 exactly.
    Bob's 1-0 takes him to 10, Ann's 6-5 (30 > 15) scores 0; the settlement leaves Bob 10 -
    25 = -15, and Ann, on 15, wins at the end of the hand."""
    data = duo(
        called={3: 10}, after={3: [claim("Ann")]}, options={"exact_target": "yes", "target": 15}
    )
    assert game_to(data, 4).scores == [15, 0]
    result = result_of(data)
    assert result["scores"] == {"Ann": 15, "Bob": -15}
    assert result["winner"] == "Ann"
    game = game_of(data)
    assert game.on_target()[0].move == 2  # her claim, after the 6-6 and the 6-3


def test_a_claim_after_the_play_that_dominoes_comes_before_the_settlement() -> None:
    """The corpus hand hand_no_spinner_five_each (totally-fives, in points): Bob dominoes
    with 3-2 on W, count 5. He calls 0: his side scores nothing, and Ann, though the hand is
    over, claims before the settlement: +5. Bob then collects Ann's 6-6 3-3 (18 -> 20).
    Ann 20 + 5 = 25, Bob 40 - 5 = 35 (the record without muggins: Ann 20, Bob 40)."""
    data = json.loads((DATA / "hand_no_spinner_five_each.json").read_text("utf-8"))
    data["options"]["muggins"] = "yes"
    events = data["hands"][0]["events"]
    events[-1]["called"] = 0
    remaining = data["hands"][0].pop("remaining")
    game = read_record(data, unsettled_last_hand=True)
    assert game.phase == "settle"
    game.push(Claim(0))
    assert game.phase == "settle" and game.scores == [25, 35 - 20]
    events.append(claim("Ann"))
    data["hands"][0]["remaining"] = remaining
    result = result_of(data)
    assert result["scores"] == {"Ann": 25, "Bob": 35}
    assert result["hands"][0]["settlement"] == {"Ann": 0, "Bob": 20}
    assert result["hands"][0]["plays"][-1]["claimed_by"] == "Ann"
    assert result["hands"][0]["next_lead"] == "Bob"


# -- a missed call not claimed before the next entry -----------------------------------------


def test_a_missed_count_not_claimed_before_the_next_play_is_lost() -> None:
    """Bob calls 10 on his 6-3 (15); Ann plays her 6-1 without claiming: the 15 are lost for
    both. Bob 10 - 25 = -15, Ann 15."""
    data = duo(called={3: 10})
    game = game_to(data, 4)
    message = refused(game, Claim(0))
    assert "the 15 points Bob missed with 6-3 were lost" in message
    assert "directly after the play" in message
    result = result_of(data)
    assert result["scores"] == {"Ann": 15, "Bob": -15}
    assert "claimed_by" not in result["hands"][0]["plays"][1]
    assert result["hands"][0]["plays"][1]["called"] == 10


def test_the_log_says_muggins_is_open_only_until_the_next_entry() -> None:
    """Bob's 6-3 called 10: while it is the last entry the log says Muggins! is open; once Ann
    has played on without claiming, it says nobody claimed it; a claim is told as one."""
    open_then = "Bob called 10: no score, Muggins! is open."
    closed = "Bob called 10: no score, and nobody claimed Muggins!."
    data = duo(called={3: 10})
    game = game_to(data, 3)
    bob = len(game.events) - 1  # Bob's 6-3, the last entry
    assert str(explain(game, bob).summary).endswith(open_then)
    assert str(explain_all(game)[bob].summary).endswith(open_then)
    later = game_to(data, 4)
    assert str(explain(later, bob).summary).endswith(closed)
    assert str(explain_all(later)[bob].summary).endswith(closed)
    assert str(explain_hand(later, 1)[bob].summary).endswith(closed)
    claimed = game_to(duo(called={3: 10}, after={3: [claim("Ann")]}), 5)
    assert str(explain(claimed, bob).summary).endswith(open_then)
    assert "Ann's Muggins!" in str(explain(claimed, bob + 1).summary)


def test_a_call_not_a_multiple_of_5_below_the_count_is_a_missed_call() -> None:
    """Bob calls 12 on his 6-3 (15): below the count, so missed; Ann's claim takes 15."""
    data = duo(called={3: 12}, after={3: [claim("Ann")]})
    assert game_to(data, 3).hands[0].plays[-1].missed == 15
    assert game_to(data, 4).scores == [15, 0]


# -- an immediate win by a claim -------------------------------------------------------------


def test_an_immediate_win_by_a_claim() -> None:
    """win_check immediate, target 15: Bob's 6-3 would have won at once (15); he calls 10,
    scores nothing, and Ann's claim of 15 takes her to the target: she wins at once, the hand
    stops unsettled and nothing more is entered."""
    options = {"win_check": "immediate", "target": 15}
    data = duo(called={3: 10}, after={3: [claim("Ann")]}, options=options, settled=False)
    data["hands"][0]["events"] = data["hands"][0]["events"][:4]
    game = game_of(data)
    assert game.winner == 0
    assert game.phase == "over"
    assert game.hands[0].result == "won"
    assert game.scores == [15, 0]
    refused(game, Play(0, tile(6, 1), "E"), "game-over")
    refused(game, Claim(0), "game-over")
    result = result_of(data)
    assert result["winner"] == "Ann"
    assert result["hands"][0]["result"] == "won"
    assert result["hands"][0]["next_lead"] is None


# -- refusals with rule call -----------------------------------------------------------------


def test_a_call_above_the_count_is_refused() -> None:
    game = game_to(duo(), 2)
    message = refused(game, Play(1, tile(6, 3), "W", called=20))
    assert "cannot call 20" in message
    assert "A call of 15 scores it; a lower one misses it." in message


def test_a_nonzero_call_on_a_play_that_scores_nothing_is_refused() -> None:
    """Ann's 6-1 on E counts 4 (3 + 1) and scores nothing: the only call is 0. So is the lead
    6-6, which counts 12."""
    game = game_to(duo(), 3)
    message = refused(game, Play(0, tile(6, 1), "E", called=5))
    assert "count 4, which scores nothing, so the only call is 0" in message
    message = refused(Game(game.setup, game.events[:1]), Play(0, tile(6, 6), called=10))
    assert "count 12" in message and "the only call is 0" in message


def test_a_claim_by_the_player_is_refused() -> None:
    game = game_to(duo(called={3: 10}), 3)
    message = refused(game, Claim(1))
    assert "their own 6-3" in message and "only an opponent may cry Muggins" in message


def quad_lead(**options: Any) -> Game:
    """Four players in partnership (Ann & Cy, Bob & Dee); Ann leads 5-5 (10) and calls 0."""
    data = record(
        QUAD,
        [hand("Ann", [{**play("Ann", "5-5"), "called": 0}])],
        options={**MUGGINS, **options},
    )
    return game_of(data)


def test_a_claim_by_the_players_partner_is_refused_an_opponents_is_taken_once() -> None:
    """Ann's lead 5-5 counts 10 and she calls 0. Her partner Cy and Ann herself may not
    claim; Bob may: Bob & Dee +10. Then Dee's claim is a second claim."""
    game = quad_lead()
    assert game.setup.sides == ("Ann & Cy", "Bob & Dee")
    message = refused(game, Claim(2))
    assert "Cy cannot claim the 10 points Ann missed: they play on the same side" in message
    assert "Only an opponent may cry Muggins." in message
    refused(game, Claim(0))
    game.push(Claim(1))
    assert game.scores == [0, 10]
    message = refused(game, Claim(3))
    assert "Bob already took the 10 points Ann missed with 5-5" in message
    assert "claimed once" in message


def test_a_second_claim_is_refused() -> None:
    game = game_to(duo(called={3: 10}, after={3: [claim("Ann")]}), 4)
    message = refused(game, Claim(0))
    assert "already took the 15 points" in message


def test_a_claim_after_another_play_or_an_adjustment_is_refused() -> None:
    """Between Bob's missed 6-3 and the claim: Ann's 6-1 (a play), or an adjustment."""
    after_play = game_to(duo(called={3: 10}), 4)
    assert "were lost when the next entry was made" in refused(after_play, Claim(0))
    after_adjustment = game_to(duo(called={3: 10}, after={3: [adjust("Bob", -5)]}), 4)
    assert "were lost when the next entry was made" in refused(after_adjustment, Claim(0))


def reserve_hand(events: list[Entry]) -> Game:
    """Two players, 9 tiles each, no spinner, 4 tiles kept in reserve (6 can be drawn).

    Ann leads 5-5 (10). Bob holds no five or blank: he draws the 6 drawable tiles, the last
    is 5-0, and plays it on E (10 + 0 = 10). Ann plays 0-0 on E (10 + 0 = 10). Bob, holding
    14 tiles without a five or a blank and with nothing left to draw, passes. (Of the 15
    tiles without a five or a blank Bob holds 14 and Ann 1; Ann also holds six of the ten
    other fives and blanks, the reserve the last four.)
    """
    data = record(
        ["Ann", "Bob"],
        [hand("Ann", events)],
        options={**MUGGINS, "spinners": "none", "boneyard_reserve": 4},
    )
    return game_of(data)


def test_a_claim_after_a_draw_is_refused() -> None:
    """Ann calls 0 on her lead 5-5 (10); Bob draws before he claims: the 10 are lost."""
    game = reserve_hand([{**play("Ann", "5-5"), "called": 0}, draw("Bob", 6)])
    message = refused(game, Claim(1))
    assert "the 10 points Ann missed with 5-5 were lost" in message


def test_a_claim_after_a_pass_is_refused() -> None:
    """Ann calls 0 on her 0-0 (10); Bob passes before he claims: the 10 are lost."""
    game = reserve_hand(
        [
            play("Ann", "5-5"),
            draw("Bob", 6),
            play("Bob", "5-0", "E"),
            {**play("Ann", "0-0", "E"), "called": 0},
            passes("Bob"),
        ]
    )
    assert game.scores == [10, 10]
    message = refused(game, Claim(1))
    assert "the 10 points Ann missed with 0-0 were lost" in message


def test_a_claim_after_the_hands_settlement_is_refused() -> None:
    """Ann calls 0 on her 6-5 (15) and dominoes next; the hand is settled: lost."""
    game = game_of(duo(called={8: 0}))
    assert game.phase == "lead"
    assert "were lost" in refused(game, Claim(1))
    # Nor once the next hand is led (the app begins it with the settlement of a domino).
    assert game.next_leader is not None
    game.push(NewHand(game.next_leader))
    assert "the 15 points Ann missed with 6-5 were lost" in refused(game, Claim(1))


def test_a_claim_with_no_missed_call_is_refused() -> None:
    """Bob called his 6-3 right: there is nothing to claim. Nor before anything is played."""
    game = game_to(duo(), 3)
    message = refused(game, Claim(0))
    assert "no count has just been missed" in message
    assert "directly after a play whose player called less than it scored" in message
    assert "no count has just been missed" in refused(Game(game.setup), Claim(0))
    assert "no count has just been missed" in refused(Game(game.setup, game.events[:1]), Claim(1))


def test_a_call_or_a_claim_without_muggins_is_refused() -> None:
    plain = game_of(
        record(["Ann", "Bob"], [hand("Ann", duo_domino_events()[:2])], options=DUO_DOMINO_OPTIONS)
    )
    message = refused(plain, Play(1, tile(6, 3), "W", called=15))
    assert "house rule muggins: no" in message and "no call to enter" in message
    message = refused(plain, Claim(0))
    assert "house rule muggins: no" in message and "no count is ever missed" in message
    assert result_of(duo_domino())["hands"][0]["plays"][1] == {
        "player": "Bob",
        "tile": "6-3",
        "end": "W",
        "count": 15,
        "points": 15,
    }


def test_call_is_named_after_every_other_rule() -> None:
    """A malformed call is rule record, even out of turn; a call above the count on a play
    out of turn is rule turn; a claim after the game is won is game-over; a claim by a seat
    that does not exist is record."""
    game = game_to(duo(), 2)
    refused(game, Play(0, tile(6, 1), "E", called=-5), "record")
    refused(game, Play(1, tile(6, 3), "W", called=True), "record")
    refused(game, Play(0, tile(6, 1), "E", called=20), "turn")
    refused(game, Play(1, tile(5, 5), "W", called=20), "match")
    refused(game, Claim(5), "record")


# -- undo ------------------------------------------------------------------------------------


def test_undo_takes_calls_and_claims_back() -> None:
    data = duo(called={3: 10}, after={3: [claim("Ann")]})
    game = game_to(data, 4)
    missed, played = game_to(data, 3), game_to(data, 2)
    assert game.pop() == Claim(0)
    assert snapshot(game) == snapshot(missed)
    assert game.scores == [0, 0] and game.hands[0].plays[-1].claimed_by is None
    assert game.pop() == Play(1, tile(6, 3), "W", called=10)
    assert snapshot(game) == snapshot(played)
    game.push(Play(1, tile(6, 3), "W"))
    assert game.scores == [0, 15]
    # Rewinding a whole hand with claims in it, and pushing it again, gives the same game.
    full = game_of(data)
    events = list(full.events)
    undone = full.rewind(1)
    assert undone == events[1:]
    for event in undone:
        full.push(event)
    assert snapshot(full) == snapshot(game_of(data))


def test_the_record_and_a_fork_keep_calls_and_claims() -> None:
    data = duo(called={3: 10, 7: 5}, after={3: [claim("Ann")], 7: [claim("Ann")]})
    game = game_of(data)
    assert write_record(game) == {**data, "preset": "all-fives"}
    assert snapshot(game.fork()) == snapshot(game)
    assert [e for e in game.events if isinstance(e, Claim)] == [Claim(0), Claim(0)]
    # Ann 15 + 10 (claim) + 15 = 40; Bob 0 - 25 = -25.
    assert game.scores == [40, -25]
