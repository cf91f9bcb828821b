from django import forms

from games.forms import WholeNumberField

from .models import Entrant


class ReorderForm(forms.Form):
    order = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 12, "cols": 60}),
        help_text="Every entrant's email, top of the ladder first.",
    )


class RemoveForm(forms.Form):
    entrant = forms.ModelChoiceField(queryset=Entrant.objects.none())
    reason = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, ladder, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entrant"].queryset = ladder.entrants.filter(active=True).select_related("player")


class AwayForm(forms.Form):
    entrant = forms.ModelChoiceField(queryset=Entrant.objects.none())
    until = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="The last day away; leave empty to mark the entrant back now. "
        "Nobody can challenge an entrant while away.",
    )

    def __init__(self, *args, ladder, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entrant"].queryset = ladder.entrants.filter(active=True).select_related("player")


class OnBehalfForm(forms.Form):
    challenger = forms.ModelChoiceField(queryset=Entrant.objects.none(), help_text="The lower player.")
    defender = forms.ModelChoiceField(queryset=Entrant.objects.none())
    start_now = forms.BooleanField(required=False, label="Start the match now (accept on the defender's behalf)")

    def __init__(self, *args, ladder, **kwargs):
        super().__init__(*args, **kwargs)
        entrants = ladder.entrants.filter(active=True).select_related("player").order_by("position")
        self.fields["challenger"].queryset = entrants
        self.fields["defender"].queryset = entrants
        self.fields["challenger"].label_from_instance = self.fields["defender"].label_from_instance = lambda e: (
            f"{e.position}. {e.player} <{e.player.email}>"
        )


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=200)


class ForfeitForm(forms.Form):
    loser = forms.ChoiceField(
        choices=[("challenger", "The challenger"), ("defender", "The defender")], label="Who forfeits the current game"
    )
    reason = forms.CharField(max_length=200, help_text="E.g. abandoned: no move for three weeks.")


class CloseSeasonForm(forms.Form):
    reseed = forms.ChoiceField(
        choices=[("keep", "Keep the positions"), ("table", "Reseed by this season's points table")]
    )


class ClubNightForm(forms.Form):
    """A game the two entrants played at the club: who, the final board, the day."""

    first = forms.ModelChoiceField(queryset=Entrant.objects.none(), label="Player")
    first_score = WholeNumberField(label="Their final score", min_value=0, max_value=999)
    second = forms.ModelChoiceField(queryset=Entrant.objects.none(), label="Opponent")
    second_score = WholeNumberField(label="Their final score", min_value=0, max_value=999)
    played_on = forms.DateField(label="Played on", widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, ladder, **kwargs):
        super().__init__(*args, **kwargs)
        entrants = ladder.entrants.filter(active=True).select_related("player").order_by("position")
        for name in ("first", "second"):
            self.fields[name].queryset = entrants
            # The place tells two players of one name apart; no address, so the choice fits a phone.
            self.fields[name].label_from_instance = lambda e: f"{e.position}. {e.player}"
        self.fields[
            "first_score"
        ].help_text = f"The winner's score is the target ({ladder.target}); the loser's is where their front peg stood."

    def clean(self):
        data = super().clean()
        first, second = data.get("first"), data.get("second")
        if first is not None and first == second:
            self.add_error("second", f"{first.player} is named twice: choose the two players of the game.")
        return data
