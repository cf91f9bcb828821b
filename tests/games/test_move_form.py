"""The game page's move form (games.play_forms.MoveForm): read, never rendered, its fields shared."""

import random

from django.http import QueryDict

from games.play_forms import MoveForm

TOKEN = "a" * 32


def read(query):
    form = MoveForm(QueryDict(f"expected_seq=4&token={TOKEN}&{query}"))
    return form, form.is_valid()


def test_each_form_reads_its_own_cards_from_fields_it_shares_with_every_other():
    first, valid = read("action=discard&cards=7C&cards=8D")
    second, also_valid = read("action=discard&cards=KS&cards=QZ")  # any code: the engine says what is held
    assert valid and also_valid
    assert first.move(False).cards == ("7C", "8D") and second.move(False).cards == ("KS", "QZ")
    assert first.fields["cards"] is second.fields["cards"] is MoveForm.base_fields["cards"]
    assert MoveForm.base_fields["cards"].choices == []


def test_what_one_form_refuses_is_its_own():
    broken, valid = read("action=play&card=7C10")
    assert not valid and broken.problem() == "Ensure this value has at most 3 characters (it has 4)."
    fine, valid = read("action=play&card=7C")
    assert valid and fine.errors == {} and fine.move(False).card == "7C"
    garbled, valid = read("action=cheat")
    assert not valid and garbled.problem().startswith("That form was incomplete or out of date")


def test_a_form_read_at_once_is_read_as_the_form_reads_it():
    # Every combination of plain and awkward values: what MoveForm.read takes at once, the form
    # takes too, with the same cleaned data and move; everything else is left to the form.
    values = {
        "action": [None, "", "play", "discard", "count", "count_ahead", "muggins", "resign", "cheat", " play"],
        "expected_seq": [None, "", "4", "007", " 4", "4 ", "-1", "+4", "٣", "3.0", "9" * 14],
        "token": [None, TOKEN, " " + TOKEN, TOKEN + "\n", "short", "a" * 65, "a" * 16 + "!"],
        "card": [None, "", "7C", "10H", " 7C", "7C10", "7\x00"],
        "points": [None, "", "0", "12", "60", "61", "٣", " 5", "-2"],
        "claim": [None, "", "8", "99"],
        "confirm": [None, "", "on", "0", "false", "False", "true", "no"],
    }
    rng = random.Random(5)
    taken = 0
    for _ in range(8000):
        data = QueryDict(mutable=True)
        for name, choices in values.items():
            value = rng.choice(choices[:4] if rng.random() < 0.7 else choices)
            if value is not None:
                data.appendlist(name, value)
        for code in rng.choice([[], ["7C"], ["7C", "8D"], ["", "KS"]]):
            data.appendlist("cards", code)
        read, form = MoveForm.read(data), MoveForm(data)
        if isinstance(read, MoveForm):
            continue
        taken += 1
        assert form.is_valid() and read.is_valid(), (data, form.errors)
        assert read.cleaned_data == form.cleaned_data
        for muggins in (False, True):
            assert _outcome(read.move, muggins) == _outcome(form.move, muggins)
    assert taken > 100


def _outcome(move, muggins):
    try:
        return move(muggins)
    except Exception as exc:  # (the same refusal either way)
        return type(exc), str(exc)
