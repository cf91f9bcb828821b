"""A seat's view of the game arranged for the templates (the game page, my games)."""

from __future__ import annotations

from games.board import DEFAULT_COLOURS
from games.cribbage import Score, ScoreItem, card_from_code
from games.models import Game
from games.presentation import plural, score_rows, won_text

_IN_WORDS = {1: "one card", 2: "two cards"}  # in words, unlike the form's legend below it
PHASE_WORDS = {"discard": "lay away to the crib", "play": "play", "show": "count"}


class Table:
    """A seat's view of the game, arranged for the templates. Built only from `view_for`."""

    def __init__(self, view):
        self.view = v = view
        self.rules = v.rules
        self.seat = v.viewer
        self.names = {p.seat: p.name for p in v.players}
        self.partnerships = self.rules["partnerships"]
        self.finished = v.status == Game.Status.FINISHED

    def side_of(self, seat):
        return self.view.side_of_seat[seat]

    def name(self, seat):
        if seat is None:
            return ""
        return "You" if seat == self.seat else self.names[seat]

    def name_in_sentence(self, seat):
        """The name inside a sentence: "you", not "You"."""
        return "you" if seat is not None and seat == self.seat else self.name(seat)

    def side_name(self, side):
        seats = [s for s in sorted(self.names) if self.side_of(s) == side]
        return " & ".join(self.names[s] for s in seats)

    def sides(self):
        v = self.view
        return [
            {
                "side": side,
                "name": self.side_name(side),
                "score": v.scores[side],
                "previous": v.previous_scores[side],
                "mine": self.seat is not None and self.side_of(self.seat) == side,
                "colour": DEFAULT_COLOURS[side % len(DEFAULT_COLOURS)],
            }
            for side in range(len(v.scores))
        ]

    def tracks(self):
        return [
            {
                "name": s["name"],
                "score": s["score"],
                "previous": s["previous"],
                "colour": s["colour"],
            }
            for s in self.sides()
        ]

    def players(self):
        out = []
        for p in self.view.players:
            out.append(
                {
                    **p.to_json(),
                    "label": self.name(p.seat),
                    "dealer": p.seat == self.view.dealer,
                    "cards_held": (self.view.cards_held[p.seat] if self.view.cards_held else 0),
                    "discarded": (self.view.discarded[p.seat] if self.view.discarded else False),
                }
            )
        return out

    def others(self):
        """The other players round the table (every player, for a spectator): name, score, the cards
        they hold (drawn face down), whether they deal, are to move, have laid away."""
        scores = self.view.scores
        return [{**p, "score": scores[self.side_of(p["seat"])]} for p in self.players() if p["seat"] != self.seat]

    def pile(self):
        """The cards of the count in play, in the order laid, each with who laid it."""
        laid_by = {p["card"]: p["seat"] for p in self.view.plays if p.get("card")}
        return [{"card": c, "who": self.name(laid_by.get(c))} for c in self.view.count_cards]

    def status(self):
        v = self.view
        if self.finished:
            return self.result_text()
        if v.phase in ("cut_for_deal", "deal"):
            return "Shuffling and dealing."
        acting = v.to_act
        words = PHASE_WORDS.get(v.phase, v.phase)
        if self.seat in acting:
            others = [self.names[s] for s in acting if s != self.seat]
            if v.phase == "discard":
                return self.lay_away_text(others)
            return f"Your turn to {words}." + (f" ({', '.join(others)} also to {words}.)" if others else "")
        if not acting:
            return ""
        return f"Waiting for {', '.join(self.names[s] for s in acting)} to {words}."

    def lay_away_text(self, others):
        """The discard asked of the reader, naming whose crib it goes to and who else is choosing:
        "Lay away two cards to Bob’s crib. Bob is choosing too." """
        owner = self.view.crib_owner
        crib = "your" if owner == self.seat else f"{self.names[owner]}’s"
        n = self.rules["discard_count"]
        text = f"Lay away {_IN_WORDS.get(n, plural(n, 'card'))} to {crib} crib."
        if others:
            text += f" {', '.join(others)} {'is' if len(others) == 1 else 'are'} choosing too."
        return text

    def result_text(self):
        result = self.view.result
        if not result:
            return ""
        text = won_text(self.side_name(result["winner"]), result, self.names, self.view.target)
        scores = " to ".join(str(s) for s in sorted(result["scores"], reverse=True))
        return f"{text}: {scores}."

    def i_won(self):
        result = self.view.result
        return bool(result) and self.seat is not None and self.side_of(self.seat) == result["winner"]

    def over(self):
        """A finished game's heading for this reader: "You won, with a skunk", "You lost", "Alice won"."""
        result = self.view.result
        if not self.finished or not result:
            return ""
        skunk = {"skunk": "a skunk", "double_skunk": "a double skunk"}.get(result["skunk"] or "")
        if self.seat is None:
            return f"{self.side_name(result['winner'])} won" + (f", with {skunk}" if skunk else "")
        if self.i_won():
            return "You won" + (f", with {skunk}" if skunk else "")
        return "You lost" + (f", and took {skunk}" if skunk else "")

    def deadline(self):
        dates = [p.deadline for p in self.view.players if p.to_act and p.deadline]
        return min(dates) if dates else None

    def plays(self, plays=None):
        """The pegging of a hand (this one by default), count by count."""
        rounds = []
        for p in self.view.plays if plays is None else plays:
            if not rounds or rounds[-1]["round"] != p["round"]:
                rounds.append({"round": p["round"], "plays": []})
            rounds[-1]["plays"].append({**p, "who": self.name(p["seat"])})
        return rounds

    def records(self, records, limit=None):
        out = []
        for r in records:
            out.append(
                {
                    **r,
                    "who": self.name(r["seat"]),
                    "rows": score_rows(_score({"total": r["points"], "items": r["items"]}))
                    if r.get("items") and not r.get("missed") and r["phase"] != "muggins"
                    else [],
                }
            )
        out.reverse()
        return out[:limit] if limit else out

    def shows(self, shows, starter):
        out = []
        for s in shows:
            score = _score(s["score"]) if "score" in s else None
            owner = self.name(s["seat"])
            title = (
                (f"{owner}’s crib" if owner != "You" else "Your crib")
                if s["what"] == "crib"
                else (f"{owner}’s hand" if owner != "You" else "Your hand")
            )
            out.append(
                {
                    "title": title,
                    "cards": s["cards"],
                    "starter": starter,
                    "score": score,
                    "rows": score_rows(score) if score else [],
                    "claimed": s["claimed"],
                    "said": score.describe() if score else "",
                }
            )
        return out

    def previous(self):
        h = self.view.previous_hand
        if not h:
            return None
        return {
            "number": h["number"],
            "dealer": self.name_in_sentence(h["dealer"]),  # "(hand 3, you dealt)"
            "starter": h["starter"],
            "kept": [{"who": self.name(s), "cards": cards} for s, cards in enumerate(h["kept"])],
            "crib": h["crib"],
            "shows": self.shows(h["shows"], h["starter"]),
            "plays": self.plays(h["plays"]),
            "records": self.records(h["records"]),
        }

    def steps(self, record):
        """A finished game hand by hand, for stepping through it on the board: each hand's number,
        dealer, the scores at its end and at its start (the pegs' holes), and the scores in words."""
        out, before = [], [0] * len(self.view.scores)
        for hand in record["hands"]:
            scores = [min(s, self.view.target) for s in hand["scores"] or before]
            gained = [now - was for now, was in zip(scores, before)]
            words = ", ".join(
                f"{self.side_name(side)} {score} (+{gain})" for side, (score, gain) in enumerate(zip(scores, gained))
            )
            out.append(
                {
                    "number": hand["number"],
                    "dealer": self.name(hand["dealer"]),
                    "scores": ",".join(map(str, scores)),
                    "previous": ",".join(map(str, before)),
                    "words": words,
                }
            )
            before = scores
        return out

    def show_moment(self, shows, previous):
        """The show to count aloud at the top of the page, or None: the hand's show while it is
        counted (muggins), and, once the last card is played, the show just counted, until the
        reader lays away to the next crib (a spectator: until the discard is over)."""
        v = self.view
        if self.finished:
            return None
        if v.phase == "show" and shows:
            return {"number": v.hand_number, "shows": shows, "now": True}
        if v.phase == "discard" and previous and previous["shows"]:
            if self.seat is None or not v.discarded[self.seat]:
                return {"number": previous["number"], "shows": previous["shows"], "now": False}
        return None

    # What the viewer may do now
    def can(self, phase):
        v = self.view
        return not self.finished and self.seat is not None and v.phase == phase and self.seat in v.to_act

    def counting(self):
        """What the viewer must count now under muggins: the hand or crib laid on the table."""
        if not self.can("show"):
            return None
        return self.view.counting


def _score(data):
    """An engine Score from its JSON form in a view (for the presentation helpers)."""
    items = tuple(
        ScoreItem(i["kind"], tuple(card_from_code(c) for c in i["cards"]), i["points"]) for i in data["items"]
    )
    return Score(data["total"], items)
