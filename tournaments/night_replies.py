"""A club night by email: on the season's address (tournaments.replies), a player reports a game
of the open night ("report NAME 121 95": their score first), and the opponent named answers it
("confirm", "dispute"), as on the season's page. Each word's handler returns what to say; a
refusal is said, nothing changed."""

from games.cribbage.notation import read_number

from . import club_nights
from .models import ClubNight, NightGame, Tournament
from .services import TournamentError

WORDS = {"report": "report", "confirm": "confirm", "dispute": "dispute"}
HELP = """
On a club night:
  report NAME 121 95   a game of tonight's: you 121, NAME 95 (it counts when NAME confirms it)
  confirm NAME         count the game NAME reported with you ("confirm" alone: the one waiting)
  dispute NAME         NAME's report is wrong: the organiser decides"""


def _night(event):
    if event.kind != Tournament.Kind.CLUB_NIGHT:
        raise TournamentError("This event is not a club night: games are not reported to it.")
    night = event.nights.filter(status=ClubNight.Status.OPEN).first()
    if night is None:
        raise TournamentError("No night is open: games are reported on the night.")
    return night


def _entrant_named(event, name):
    said = " ".join(name.split())
    for entrant in event.entrants.filter(approved=True).select_related("player"):
        if said.lower() in (str(entrant.player).lower(), entrant.player.email.lower()):
            return entrant
    raise TournamentError(f'No entrant of {event} is called "{said}": write their name as the table shows it.')


def report(event, user, rest):
    night = _night(event)
    tokens = rest.split()
    mine, theirs = (read_number(t) for t in tokens[-2:]) if len(tokens) >= 3 else (None, None)
    if mine is None or theirs is None:
        raise TournamentError('Write "report NAME YOUR-SCORE THEIR-SCORE", e.g. "report Bob 121 95".')
    opponent = _entrant_named(event, " ".join(tokens[:-2]))
    club_nights.report_game(night, user, opponent, mine, theirs)
    return [f"Reported your game with {opponent}: you {mine}, {opponent} {theirs}. It counts when they confirm it."]


def _waiting(event, user, name):
    night = _night(event)
    me = club_nights.entrant_of(event, user)
    waiting = night.games.filter(second=me, status=NightGame.Status.REPORTED).select_related("first__player")
    if name:
        waiting = waiting.filter(first=_entrant_named(event, name))
    items = list(waiting)
    if not items:
        raise TournamentError("No reported game waits for your answer" + (f" from {name}" if name else "") + ".")
    if len(items) > 1:
        names = ", ".join(sorted({str(i.first) for i in items}))
        raise TournamentError(f"Several reported games wait ({names}): write confirm NAME with one name.")
    return items[0]


def confirm(event, user, rest):
    item = _waiting(event, user, rest)
    club_nights.confirm_game(item, user)
    return [
        f"Confirmed: your game with {item.first} ({item.first} {item.first_score}, you {item.second_score}) counts."
    ]


def dispute(event, user, rest):
    item = _waiting(event, user, rest)
    club_nights.dispute_game(item, user)
    return [f"Disputed: your game with {item.first} waits, not counted, for the organiser."]


def act(event, user, word, rest):
    """(done, [what to say]) for a club night word."""
    try:
        return True, {"report": report, "confirm": confirm, "dispute": dispute}[word](event, user, rest)
    except TournamentError as exc:
        return False, [f"{exc.message} Nothing was done."]
