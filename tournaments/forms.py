"""The club night's forms: a game of the night (the organiser's rows, a player's report)."""

from django import forms

from games.forms import WholeNumberField

from .models import Award, Entrant

# A score box as wide as its three digits (the night's nine rows fit a phone).
SCORE = forms.NumberInput(attrs={"class": "vIntegerField", "inputmode": "numeric"})


def score(label):
    return WholeNumberField(label=label, min_value=0, max_value=200, widget=SCORE)


class NightGameForm(forms.Form):
    """One game of the night as the organiser enters it: the two players and their final scores."""

    first = forms.ModelChoiceField(queryset=Entrant.objects.none(), label="Player")
    first_score = score("Score")
    second = forms.ModelChoiceField(queryset=Entrant.objects.none(), label="Opponent")
    second_score = score("Opponent's score")

    def __init__(self, *args, entrants, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            self.fields[name].queryset = entrants  # type: ignore[attr-defined]


class BaseNightGames(forms.BaseFormSet):
    def __init__(self, *args, entrants, **kwargs):
        self.entrants = entrants
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index):
        return {"entrants": self.entrants}

    def games(self):
        """The filled rows as (first, second, first's score, second's score); empty rows skipped."""
        return [
            (
                f.cleaned_data["first"],
                f.cleaned_data["second"],
                f.cleaned_data["first_score"],
                f.cleaned_data["second_score"],
            )
            for f in self.forms
            if f.cleaned_data
        ]


NightGames = forms.formset_factory(NightGameForm, formset=BaseNightGames, extra=9, max_num=30)


class AwardForm(forms.Form):
    entrant = forms.ModelChoiceField(queryset=Entrant.objects.none(), label="Player")
    kind = forms.ChoiceField(
        label="Hand", choices=[(Award.Kind.HAND_28, "A 28 hand"), (Award.Kind.HAND_29, "A 29 hand")]
    )

    def __init__(self, *args, entrants, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entrant"].queryset = entrants  # type: ignore[attr-defined]


class ReportForm(forms.Form):
    """A player reports a game of the open night: it counts when the opponent confirms it."""

    opponent = forms.ModelChoiceField(queryset=Entrant.objects.none())
    my_score = score("My score")
    their_score = score("Their score")

    def __init__(self, *args, entrants, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opponent"].queryset = entrants  # type: ignore[attr-defined]
