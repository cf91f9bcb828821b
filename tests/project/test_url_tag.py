"""`{% url %}` keeps what it reversed (cribsite/url_tag.py) and says what Django's tag says."""

import pytest
from django.template import engines
from django.urls import NoReverseMatch, reverse, set_script_prefix

from cribsite import url_tag


def render(text, **context):
    return engines["django"].from_string(text).render(context)


def test_the_tag_gives_djangos_urls_and_keeps_them():
    url_tag._kept.cache_clear()
    text = "{% url 'help' %} {% url 'games:game' 5 %} {% url 'games:game' game_id=n %} {% url 'games:game' '8' %}"
    expected = " ".join(
        [reverse("help"), reverse("games:game", args=[5]), reverse("games:game", args=[7]), "/games/8/"]
    )
    assert render(text, n=7) == expected
    assert render(text, n=7) == expected
    assert url_tag._kept.cache_info().hits == 4
    assert render("{% url 'games:game' n %}", n=9) == reverse("games:game", args=[9])


def test_a_url_not_found_is_refused_or_empty_as_before():
    with pytest.raises(NoReverseMatch):
        render("{% url 'no-such-page' %}")
    assert render("{% url 'no-such-page' as x %}[{{ x }}]") == "[]"
    with pytest.raises(NoReverseMatch):
        render("{% url 'games:game' b %}", b=True)  # not kept as the number 1


def test_a_script_prefix_is_part_of_what_is_kept():
    plain = render("{% url 'help' %}")
    set_script_prefix("/cribbage/")
    try:
        assert render("{% url 'help' %}") == "/cribbage" + plain
    finally:
        set_script_prefix("/")
    assert render("{% url 'help' %}") == plain
