"""The penalties a club agrees once ("drew and could play: -30"), and whether its ordinary games
count toward its ratings: the club's settings, changed behind its edit link only.

A penalty is no event of its own: at the table it is an ordinary adjustment (docs/rules.md 8c)
with the penalty's name as its reason and its amount as the points, so the referee checks it,
and the log, the sheet and the record show it, exactly as any adjustment.
"""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.rules.events import REASON_LENGTH
from scorekeeper.rules.messages import Message, say
from scorekeeper.rules.names import control_problem, name_key
from scorekeeper.web.data import games
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import ClubPenaltyRow, ClubRow

MOST_PENALTIES = 20
"""The most penalties a club keeps (a bound on what one edit link can store, and on the play
screen's row of buttons)."""
LARGEST = 1000
"""The largest amount of a penalty, up or down: the adjust form's bound too."""


class PenaltyProblem(Exception):
    """A penalty cannot be stored as given; ``said`` says why (``str()`` is the English)."""

    def __init__(self, said: Message) -> None:
        super().__init__(str(said))
        self.said = said


def club_penalties(club_id: int) -> list[ClubPenaltyRow]:
    """The club's penalties, in the order they were agreed."""
    query = (
        select(ClubPenaltyRow)
        .where(ClubPenaltyRow.club_id == club_id)
        .order_by(ClubPenaltyRow.created_at, ClubPenaltyRow.id)
    )
    return list(db.session.scalars(query).all())


def find_penalty(club_id: int, penalty_id: int) -> ClubPenaltyRow | None:
    """The club's penalty ``penalty_id``, or None (another club's is none of this one's)."""
    penalty = db.session.get(ClubPenaltyRow, penalty_id)
    return penalty if penalty is not None and penalty.club_id == club_id else None


def amount_problem(amount: object) -> Message | None:
    """Why ``amount`` cannot be a penalty's, or None: a whole number of points other than 0,
    a multiple of 5 as every score is, at most 1000 either way."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        return say("A penalty's amount is a whole number of points, such as -30.")
    if amount == 0:
        return say("A penalty's amount cannot be 0: it changes a score.")
    if abs(amount) > LARGEST:
        return say(
            "A penalty's amount is at most %(most)s points up or down, not %(given)s.",
            most=LARGEST,
            given=amount,
        )
    if amount % 5:
        return say(
            "A penalty's amount is a multiple of 5 points, as every score is: %(lower)s or "
            "%(higher)s, not %(given)s.",
            lower=amount - amount % 5,
            higher=amount - amount % 5 + 5,
            given=amount,
        )
    return None


def _checked(club: ClubRow, name: str, amount: int, penalty_id: int | None) -> tuple[str, str]:
    """The name as stored and its key, or a PenaltyProblem."""
    name = " ".join(name.split())
    if not name:
        raise PenaltyProblem(say("A penalty needs a name: what the player did."))
    if len(name) > REASON_LENGTH:
        raise PenaltyProblem(
            say("A penalty's name is at most %(most)s characters.", most=REASON_LENGTH)
        )
    problem = control_problem(name)
    if problem is not None:
        raise PenaltyProblem(problem)
    wrong = amount_problem(amount)
    if wrong is not None:
        raise PenaltyProblem(wrong)
    key = name_key(name)
    for other in club_penalties(club.id):
        if other.name_key == key and other.id != penalty_id:
            raise PenaltyProblem(
                say("The club has a penalty called %(name)s already.", name=other.name)
            )
    return name, key


def add_penalty(club: ClubRow, name: str, amount: int) -> ClubPenaltyRow:
    """Agree a new penalty (committed), or a PenaltyProblem and nothing stored."""
    games.begin_write()
    try:
        name, key = _checked(club, name, amount, None)
        if len(club_penalties(club.id)) >= MOST_PENALTIES:
            raise PenaltyProblem(
                say("A club keeps at most %(most)s penalties.", most=MOST_PENALTIES)
            )
        penalty = ClubPenaltyRow(club_id=club.id, name=name, name_key=key, amount=amount)
        db.session.add(penalty)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return penalty


def _own(club: ClubRow, penalty_id: int) -> ClubPenaltyRow:
    penalty = find_penalty(club.id, penalty_id)
    if penalty is None:
        raise PenaltyProblem(say("That penalty is not one of this club's (reload the page)."))
    return penalty


def edit_penalty(club: ClubRow, penalty_id: int, name: str, amount: int) -> ClubPenaltyRow:
    """Give a penalty a new name or amount (committed); adjustments made with it before keep
    theirs."""
    games.begin_write()
    try:
        penalty = _own(club, penalty_id)
        penalty.name, penalty.name_key = _checked(club, name, amount, penalty.id)
        penalty.amount = amount
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return penalty


def remove_penalty(club: ClubRow, penalty_id: int) -> str:
    """Remove a penalty (committed): its name. Adjustments made with it stay in their games."""
    games.begin_write()
    try:
        penalty = _own(club, penalty_id)
        name = penalty.name
        db.session.delete(penalty)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return name


def set_rate_club_games(club: ClubRow, counts: bool) -> None:
    """Whether the club's ordinary games count toward its ratings (committed)."""
    games.begin_write()
    try:
        club.rate_club_games = counts
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
