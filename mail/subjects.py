"""The subject of a game's email says what is asked or what happened, then which game:
"Your discard — Alice v Bob, hand 3 (game 12)", "Bob laid 6♥ for fifteen two: your play at 21 —
Alice v Bob, hand 3 (game 12)", "You won 121–98 — Alice v Bob, Winter League, round 2 (game 12)".

An inbox sorts by it; the thread is kept by the headers (mail.messages: every email of a game
refers to its thread root). A game of an event is named with the event: the app that runs the
event says how (`games.event_games`, registered in its AppConfig.ready()), as mail is below it.
"""

from games import event_games
from games.cribbage.scoring import number_words
from games.presentation import cards_text
from games.presenter.table_text import seat_names, side_names


def event_name(game_id, kept_as=None):
    """The event a game is played in, as its subject names it ("Winter League, round 2"), or "".
    Kept in the cache a few minutes, as the game page keeps it (event_games.of_kept): asking every
    event app for each email cost two queries. A game's event never changes once it started (it
    is recorded with the game), so a game in none, known by `kept_as` (Game.kept_as: never
    another game's), is remembered by the process and asks nothing again."""
    if kept_as is not None and kept_as in _in_no_event:
        return ""
    found = event_games.of_kept(game_id)
    if found is None and kept_as is not None:
        if len(_in_no_event) >= IN_NO_EVENT_KEPT:
            _in_no_event.clear()
        _in_no_event.add(kept_as)
    return found.subject if found else ""


IN_NO_EVENT_KEPT = 10_000  # games a process remembers as in no event (then it starts again)
_in_no_event: set[str] = set()


def _last_play_by_another(view, seat):
    others = [p for p in view.plays if p["seat"] != seat]
    return others[-1] if others else None


# What a card pegged, as a subject says it: the fifteen and the 31 say their points themselves.
_PEGGED = {
    "fifteen": "fifteen two",
    "thirty_one": "thirty-one for two",
    "pair": "a pair",
    "pair_royal": "a pair royal",
    "double_pair_royal": "a double pair royal",
    "go": "the go",
    "last_card": "the last card",
}


def _what_it_pegged(view, play):
    """ "for fifteen two", "for a run of three and the go (4)", "for 2" (a claim still secret), or ""."""
    if not play["points"]:
        return ""
    records = [r for r in view.records if r["phase"] == "play" and r["seat"] == play["seat"]]
    items = records[-1].get("items") if records and records[-1]["points"] == play["points"] else None
    if not items:
        return f" for {play['points']}"
    words = [
        f"a run of {number_words(len(i['cards']))}" if i["kind"] == "run" else _PEGGED.get(i["kind"], i["kind"])
        for i in items
    ]
    said_alone = len(items) == 1 and items[0]["kind"] in ("fifteen", "thirty_one")
    return f" for {' and '.join(words)}" + ("" if said_alone else f" ({play['points']})")


def turn_lead(view, seat):
    """What a turn email asks of `seat`, with what was just done before it."""
    phase = view.phase
    if phase == "discard":
        return "Your discard"
    if phase == "show":
        return "Your count"
    if phase != "play":
        return "Your move"
    count = view.count
    asked = f"your play at {count}" if count else "your lead"
    last = _last_play_by_another(view, seat)
    if last is None:
        return asked[0].upper() + asked[1:]
    who = seat_names(view).get(last["seat"], "")
    done = f"{who} said go" if last["go"] else f"{who} laid {cards_text([last['card']])}{_what_it_pegged(view, last)}"
    return f"{done}: {asked}"


def result_lead(view, seat):
    """Who won and the final scores, the winner's first: "You won 121–98", "Bob won 121–98, a skunk"."""
    result = view.result
    if not result:
        return "The game is over"
    winner = result["winner"]
    mine = seat is not None and view.side_of_seat[seat] == winner
    name = "You" if mine else side_names(view)[winner]
    if result["reason"] in ("resign", "forfeit"):
        loser = "you" if result["seat"] == seat else seat_names(view).get(result["seat"], "")
        how = "ran out of time" if result.get("detail") == "timeout" else _GAVE_UP[result["reason"]]
        return f"{name} won: {loser} {how}"
    scores = result["scores"]
    others = max(s for side, s in enumerate(scores) if side != winner)
    skunk = {"skunk": ", a skunk", "double_skunk": ", a double skunk"}.get(result.get("skunk") or "", "")
    return f"{name} won {scores[winner]}–{others}{skunk}"


_GAVE_UP = {"resign": "resigned", "forfeit": "forfeited"}
