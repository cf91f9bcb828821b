"""Forms that start games (a challenge, a seek and the seek board's filter, practice) and
the whole-number field every app's forms use: they parse and check input; games.challenges
and games.computer_games do the work. The game page's own forms (a move, a plan) are in games.play_forms."""

import json
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import models

from accounts import directory
from games.challenges import DAYS_PER_MOVE_RANGE, others_needed
from games.cribbage import FULL_GAME, SHORT_GAME, notation
from games.models import MAX_TIME_BANK_DAYS, ComputerLevel, Game, Variant

TARGET_CHOICES = [(FULL_GAME, f"{FULL_GAME} (the full game)"), (SHORT_GAME, f"{SHORT_GAME} (a short game)")]
VARIANT_HELP = (
    "Four players play in partnerships: the second player you name is your partner, sitting across the table."
)


class WholeNumberField(forms.IntegerField):
    """A whole number typed in the digits 0 to 9, read as a reply's numbers are
    (`notation.read_number`). Django's IntegerField reads any script's digits ("٣", "３" as
    3), which a person checking the form, the log or a reply would not read so."""

    default_error_messages = {"invalid": "Write a whole number in the digits 0 to 9."}

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        number = notation.read_number(str(value).strip())
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number


# Every whole-number field of a model, in a ModelAdmin's form (events.scoped_admin): digits 0 to 9.
WHOLE_NUMBER_FIELDS: Mapping[type[models.Field], Mapping[str, Any]] = {
    models.IntegerField: {"form_class": WholeNumberField}
}


class GameSettingsForm(forms.Form):
    variant = forms.ChoiceField(label="Game", choices=Variant.choices, initial=Variant.TWO, help_text=VARIANT_HELP)
    target = forms.TypedChoiceField(label="Play to", choices=TARGET_CHOICES, coerce=int, initial=FULL_GAME)
    muggins = forms.BooleanField(
        label="Muggins: players count their own points, and opponents may claim what they miss", required=False
    )
    days_per_move = WholeNumberField(
        label="Days per move",
        min_value=DAYS_PER_MOVE_RANGE[0],
        max_value=DAYS_PER_MOVE_RANGE[1],
        initial=3,
        help_text="After this, a player who has not moved may lose the game.",
    )
    pause_weekends = forms.BooleanField(
        label="Stop the clock at weekends (Saturday and Sunday, each player's own time)", required=False
    )
    pause_nights = forms.BooleanField(
        label="Stop the clock at night (each player's night, set on their profile)", required=False
    )
    timeout_policy = forms.ChoiceField(
        label="When a player runs out of time",
        choices=Game.TimeoutPolicy.choices,
        initial=Game.TimeoutPolicy.FORFEIT,
        required=False,
    )
    time_bank_days = WholeNumberField(
        label="Time bank (days)",
        min_value=0,
        max_value=MAX_TIME_BANK_DAYS,
        initial=0,
        required=False,
        help_text=f"A reserve of extra days for each player in this game, spent a day at a time before a "
        f"timeout (0 to {MAX_TIME_BANK_DAYS}; 0 for none).",
        error_messages={
            "max_value": f"A time bank is 0 to {MAX_TIME_BANK_DAYS} days.",
            "min_value": f"A time bank is 0 to {MAX_TIME_BANK_DAYS} days.",
        },
    )
    help_on = forms.BooleanField(
        label="Help on for both: expected values of the discards and the coach's notes during the game",
        required=False,
        help_text="Off by default: a game between people has no engine help until it ends, then everyone "
        "gets the full review. Every player sees this choice and accepts it with the challenge.",
    )

    rated = forms.BooleanField(
        label="Rated: the result counts for every player's rating",
        required=False,
        help_text="A rated game has no engine help until it ends. Every player sees this choice and "
        "agrees to it by accepting.",
    )

    def clean(self):
        data = super().clean()
        if data.get("rated") and data.get("help_on"):
            self.add_error("help_on", "A rated game has no engine help: untick help on, or rated.")
        return data

    def settings(self):
        data = self.cleaned_data
        return {
            "variant": data["variant"],
            "target": data["target"],
            "muggins": data["muggins"],
            "days_per_move": data["days_per_move"],
            "pause_weekends": data["pause_weekends"],
            "pause_nights": data["pause_nights"],
            "timeout_policy": data["timeout_policy"] or Game.TimeoutPolicy.FORFEIT,
            "time_bank_days": data["time_bank_days"] or 0,
            "help_on": data["help_on"],
            "rated": data["rated"],
        }


OPPONENTS = ("player1", "player2", "player3")


def opponent_field(label, help_text=""):
    return forms.CharField(
        label=label,
        max_length=254,
        required=False,
        help_text=help_text,
        widget=forms.TextInput(attrs={"autocomplete": "off", "list": "people-played", "spellcheck": "false"}),
    )


class ChallengeForm(GameSettingsForm):
    """Name the other players, in seat order after you: a member by the name they play under,
    anyone by email address (a new address gets an invitation). A name several members share
    is asked again, with a choice between them (`player1_pick`, ...: the chosen member's id)."""

    player1 = opponent_field(
        "Opponent", "A member's name, or an email address: someone new gets an invitation to join and play."
    )
    player2 = opponent_field("Second opponent (three players), or your partner (four players)")
    player3 = opponent_field("Second opponent (four players)")

    field_order = ["variant", *OPPONENTS]

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.namesakes: dict[str, list] = {}  # field -> the members who share the name given
        self.fields["variant"].help_text = ""  # who partners whom is said beside the boxes for more players
        self.fields["variant"].widget.attrs["data-others-needed"] = json.dumps(
            {variant: others_needed(variant) for variant in Variant.values}
        )

    def _clean_opponent(self, name):
        text = " ".join((self.cleaned_data.get(name) or "").split())
        if not text:
            return ""
        if "@" in text:
            try:
                validate_email(text)
            except ValidationError:
                raise ValidationError(f"“{text}” is not a valid email address.") from None
            return text
        found = directory.members_named(text, exclude=self.user)
        picked = [member for member in found if str(member.pk) == self.data.get(f"{name}_pick")]
        if picked:
            return picked[0]
        if len(found) == 1:
            return found[0]
        if not found:
            raise ValidationError(f"No member goes by “{text}”. To invite someone new, give a valid email address.")
        if len(found) > directory.MOST:
            raise ValidationError(
                f"Many members go by names like “{text}”: give more of the name, or an email address."
            )
        self.namesakes[name] = found
        raise ValidationError(f"{len(found)} members go by names like “{text}”: choose one below.")

    def clean_player1(self):
        return self._clean_opponent("player1")

    def clean_player2(self):
        return self._clean_opponent("player2")

    def clean_player3(self):
        return self._clean_opponent("player3")

    def clean(self):
        data = super().clean()
        variant = data.get("variant")
        if variant:
            needed = others_needed(variant)
            for n, name in enumerate(OPPONENTS, start=1):
                if n <= needed and not data.get(name) and name not in self.errors:
                    self.add_error(
                        name,
                        f"{Variant(variant).label} needs {needed} other "
                        f"player{'s' if needed > 1 else ''}: name this one.",
                    )
                elif n > needed and data.get(name):
                    self.add_error(
                        name,
                        f"{Variant(variant).label} has no place for a "
                        f"{'second' if n == 2 else 'third'} player: leave this empty.",
                    )
        return data

    def opponents(self):
        return [self.cleaned_data.get(name) for name in OPPONENTS if self.cleaned_data.get(name)]

    def opponent_rows(self):
        """[(bound field, its seat after yours, namesakes to choose from, the id picked)] for the page."""
        return [
            (
                self[name],
                n,
                [(m, directory.masked_email(m.email)) for m in self.namesakes.get(name, [])],
                self.data.get(f"{name}_pick", ""),
            )
            for n, name in enumerate(OPPONENTS, start=1)
        ]

    def settings_fields(self):
        """The bound fields of the game's settings, after the variant and the players."""
        return [self[name] for name in self.fields if name not in ("variant", *OPPONENTS)]


RELIABILITY_CHOICES = [("", "Anyone")] + [(str(n), f"At least {n}%") for n in (80, 90, 95, 100)]
RELIABILITY_HELP = (
    "The share of a player's games finished in the last 90 days that they did not lose on time. "
    "A player with no finished game in that time has no figure and is never kept out."
)


def reliability_field(label):
    """A reliability floor (a percent, or none: anyone): a seek's, and the seek board's filter."""
    return forms.TypedChoiceField(
        label=label,
        choices=RELIABILITY_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        help_text=RELIABILITY_HELP,
    )


class SeekForm(GameSettingsForm):
    min_reliability = reliability_field("Who may take it")

    def settings(self):
        return {**super().settings(), "min_reliability": self.cleaned_data["min_reliability"]}


class SeekFilterForm(forms.Form):
    """The seek board's filters, read from the address (GET): a game, a rating range for the
    challenger in that game's family, a reliability floor for the challenger."""

    variant = forms.ChoiceField(label="Game", choices=[("", "Any game"), *Variant.choices], required=False)
    rating_from = WholeNumberField(label="Rating from", min_value=0, max_value=4000, required=False)
    rating_to = WholeNumberField(label="Rating to", min_value=0, max_value=4000, required=False)
    reliability = reliability_field("Reliability")

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "filter_%s")  # the page's other form has a "variant" too
        super().__init__(*args, **kwargs)

    def clean(self):
        data = super().clean()
        low, high = data.get("rating_from"), data.get("rating_to")
        if low is not None and high is not None and low > high:
            self.add_error("rating_to", f"Give a rating range from low to high: {low} is above {high}.")
        return data

    def filters(self):
        """The filters asked for (all empty when the form is not valid)."""
        data = self.cleaned_data if self.is_valid() else {}
        return {
            "variant": data.get("variant") or None,
            "rating_from": data.get("rating_from"),
            "rating_to": data.get("rating_to"),
            "min_reliability": data.get("reliability"),
        }


class PracticeForm(forms.Form):
    level = forms.ChoiceField(label="Computer", choices=ComputerLevel.choices, initial=ComputerLevel.STANDARD)
    variant = forms.ChoiceField(label="Game", choices=Variant.choices, initial=Variant.TWO)
    target = forms.TypedChoiceField(label="Play to", choices=TARGET_CHOICES, coerce=int, initial=FULL_GAME)
    muggins = forms.BooleanField(label="Muggins: count your own points (the computer calls muggins)", required=False)
    by_email = forms.TypedChoiceField(
        label="How to play",
        choices=[
            ("", "On this site (no emails)"),
            ("0", "By email, the computer at once"),
            ("3600", "By email, the computer an hour later"),
            ("7200", "By email, the computer 2 hours later"),
            ("86400", "By email, the computer a day later"),
        ],
        coerce=int,
        empty_value=None,
        required=False,
        help_text="A game by email is slow like any game (7 days a move) with the coach on; or write "
        '"new game computer expert delay 2h" to the service\'s address.',
    )
