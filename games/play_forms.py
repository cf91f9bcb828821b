"""Forms of the game page: a move and a pegging plan. They parse and check input;
games.services does the work (a move is checked by the engine, not here)."""

import re
from functools import cached_property, lru_cache

from django import forms
from django.utils.html import escape
from django.utils.safestring import mark_safe

from games.cribbage import Move, notation
from games.forms import WholeNumberField


class _AnyCards(forms.MultipleChoiceField):
    """Card codes, any submitted: the engine says whether they are held."""

    def valid_value(self, value):
        return True


class _SharedFields(dict):
    """A MoveForm's fields, shared by all its instances, not copied deep for each as Django
    copies a form's fields (a third of the form's CPU on the POST of a move): the form is read,
    never rendered, and reading it changes no field."""

    def __deepcopy__(self, memo):
        return dict(self)


class MoveForm(forms.Form):
    """One move from the game page. The engine checks the move itself."""

    ACTIONS = ["discard", "play", "count", "count_ahead", "muggins", "resign"]

    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    expected_seq = WholeNumberField(min_value=0)
    token = forms.RegexField(regex=r"^[A-Za-z0-9_-]{16,64}$")
    cards = _AnyCards(required=False)
    card = forms.CharField(required=False, max_length=3)
    claim = WholeNumberField(required=False, min_value=0, max_value=60)
    points = WholeNumberField(required=False, min_value=0, max_value=60)
    confirm = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        action = data.get("action")
        if action == "discard" and not data.get("cards"):
            self.add_error("cards", "Choose the cards to lay away to the crib.")
        elif action == "play" and not data.get("card"):
            self.add_error("card", "Choose a card to play.")
        elif action in ("count", "count_ahead") and data.get("points") is None and "points" not in self.errors:
            self.add_error("points", "Say how many points you count.")
        elif action == "resign" and not data.get("confirm"):
            self.add_error("confirm", "Tick the box to confirm that you resign: nothing was changed.")
        return data

    @classmethod
    def read(cls, data):
        """The form of the move posted as `data` (a QueryDict), read: its `cleaned_data` and `move`
        as a valid MoveForm's, at once when every field is written as the game page writes it
        (`_plain`); otherwise the MoveForm itself, to be asked `is_valid()` (and its `problem()`)."""
        cleaned = _plain(data)
        return cls(data) if cleaned is None else _Read(cleaned)

    def move(self, muggins):
        """The move for the service (a cribbage.Move)."""
        return _move(self.cleaned_data, muggins)

    def problem(self):
        """The first error, in words for the player."""
        for name, errors in self.errors.items():
            if name in ("expected_seq", "token", "action"):
                return "That form was incomplete or out of date: nothing was changed. Please try again from this page."
            return errors[0]
        return ""


MoveForm.base_fields = _SharedFields(MoveForm.base_fields)


def _move(data, muggins):
    move = notation.from_form(
        data["action"],
        cards=data.get("cards") or (),
        card=data.get("card") or "",
        claim=data.get("claim"),
        points=data.get("points"),
        muggins=muggins,
    )
    return Move.from_json(move)


class _Read:
    """A move form read at once (`MoveForm.read`): valid, with what a valid MoveForm gives."""

    def __init__(self, cleaned_data):
        self.cleaned_data = cleaned_data

    def is_valid(self):
        return True

    def problem(self):
        return ""

    def move(self, muggins):
        return _move(self.cleaned_data, muggins)


_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}\Z")


def _plain(data):
    """The `cleaned_data` a MoveForm gives for `data`, when each field is plainly valid as the game
    page's forms send it (the action one of ACTIONS, the numbers in ASCII digits, a card code of at
    most three characters, nothing to strip) and the action has what it needs; None otherwise (the
    form reads it, and says what is wrong). Reads the fields as their widgets and fields read them."""
    action, token = data.get("action"), data.get("token")
    expected_seq = _whole(data.get("expected_seq"), None)
    if action not in MoveForm.ACTIONS or expected_seq is None or token is None or not _TOKEN.match(token):
        return None
    card = data.get("card")
    if card is None:
        card = ""
    elif len(card) > 3 or card != card.strip() or "\x00" in card:
        return None
    claim, points = _whole(data.get("claim"), 60), _whole(data.get("points"), 60)
    if claim is _NOT_PLAIN or points is _NOT_PLAIN:
        return None
    confirm = False
    if "confirm" in data:  # as CheckboxInput reads it (BooleanField keeps its bool)
        value = data.get("confirm")
        confirm = bool({"true": True, "false": False}.get(value.lower(), value) if isinstance(value, str) else value)
    cleaned = {
        "action": action,
        "expected_seq": expected_seq,
        "token": token,
        "cards": [str(code) for code in data.getlist("cards")],
        "card": card,
        "claim": claim,
        "points": points,
        "confirm": confirm,
    }
    if (
        action == "discard"
        and not cleaned["cards"]
        or action == "play"
        and not card
        or action in ("count", "count_ahead")
        and points is None
        or action == "resign"
        and not confirm
    ):
        return None  # (MoveForm.clean says what is missing)
    return cleaned


_NOT_PLAIN = object()


def _whole(value, most):
    """A WholeNumberField's value (from 0, to `most` if given) written in ASCII digits alone: the
    number; None for none; for anything else, _NOT_PLAIN (None for a field without `most`, a
    required one: either way the form reads it)."""
    if value is None or value == "":
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 12:
        return _NOT_PLAIN if most is not None else None
    number = int(value)
    if most is not None and number > most:
        return _NOT_PLAIN
    return number


PLAN_RANKS = [("", "—")] + [(r, r) for r in "A 2 3 4 5 6 7 8 9 T J Q K".split()]


def _place_choices(count):
    """A card's place in the order: none, or 1 to the number of cards held."""
    return [("", "—")] + [(str(i), str(i)) for i in range(1, count + 1)]


class PlanForm(forms.Form):
    """A pegging plan from a form, no script needed: a place in the order for each card (or none),
    and the rules ticked. `words()` writes it in the plan's own words (cribbage.read_plan reads
    them, as it reads a reply), so every channel has one grammar."""

    score_first = forms.BooleanField(
        required=False, label="Score first: when one of my cards pegs now, play the one that pegs most"
    )
    on_rank = forms.ChoiceField(required=False, choices=PLAN_RANKS, label="On a")
    on_card = forms.CharField(required=False, max_length=3, label="play")
    clear = forms.BooleanField(required=False)

    def __init__(self, data=None, cards=(), prefix=None):
        super().__init__(data, prefix=prefix)
        self.cards = list(cards)
        places = _place_choices(len(self.cards))
        for card in self.cards:
            self.fields[f"place_{card}"] = forms.TypedChoiceField(
                required=False, choices=places, coerce=int, empty_value=None, label=card
            )

    def places(self):
        """(card, its place field) for the template, in the order the cards are held."""
        return [(card, self[f"place_{card}"]) for card in self.cards]

    def words(self):
        """The plan's words ("score first, on 5 play TH, 7C 8D", "clear"), or "" when nothing was asked."""
        data = self.cleaned_data
        if data.get("clear"):
            return "clear"
        placed = sorted(
            (data[f"place_{c}"], i, c) for i, c in enumerate(self.cards) if data.get(f"place_{c}") is not None
        )
        parts = ["score first"] if data.get("score_first") else []
        if data.get("on_rank") and data.get("on_card"):
            parts.append(f"on {data['on_rank']} play {data['on_card'].strip()}")
        if placed:
            parts.append(" ".join(c for _, _, c in placed))
        return ", ".join(parts)


class PlanFields:
    """The plan form's fields as the game page shows them, unbound: a select of places for each
    card held (`places`: (card, its select)), the "score first" box, the rank of "on a ... play"
    and its card, from `initial` (field name -> value, as PlanForm's). The markup is the one
    PlanForm's widgets render, written here: the widgets render a template for every select,
    option and attribute, a fifth of a changed game page's CPU. Posted, the form is PlanForm's."""

    score_first_label = PlanForm.base_fields["score_first"].label

    def __init__(self, cards, initial):
        # The selects are written when the page's template reads them: a page whose plan form
        # comes from the cache (games.fragments) never does.
        self.cards, self.initial = cards, initial
        self.on_card = initial.get("on_card") or ""

    @cached_property
    def places(self):
        places = _place_choices(len(self.cards))
        return [(card, _select(f"place_{card}", places, self.initial.get(f"place_{card}"))) for card in self.cards]

    @cached_property
    def score_first(self):
        checked = " checked" if self.initial.get("score_first") else ""
        return mark_safe(f'<input type="checkbox" name="score_first" id="id_score_first"{checked}>')  # noqa: S308

    @cached_property
    def on_rank(self):
        return _select("on_rank", PLAN_RANKS, self.initial.get("on_rank"))


def _select(name, choices, value):
    """A select as Django's Select widget renders it, `value` (or none) selected."""
    value = "" if value is None else str(value)
    options = _options(tuple(choices), value)
    return mark_safe(f'<select name="{escape(name)}" id="id_{escape(name)}">{options}\n</select>')  # noqa: S308


@lru_cache(maxsize=256)
def _options(choices, value):
    """A select's options, `value` selected: the same few lists on every plan form (the places for
    each number of cards, the ranks), each value selected in turn."""
    return "".join(
        f'\n  <option value="{escape(v)}"{" selected" if v == value else ""}>{escape(label)}</option>\n'
        for v, label in choices
    )
