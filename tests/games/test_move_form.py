"""The game page's move form (games.play_forms.MoveForm): read, never rendered, its fields shared."""

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
