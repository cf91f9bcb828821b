"""The header's menu is kept per process by what it depends on (cribsite.kept_part): each reader
and section gets their own, a change to the reader shows at once, and its CSRF token is the look's."""

import re

import pytest
from django.urls import reverse

from cribsite import kept_part
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def nav(html):
    return re.search(r'<nav aria-label="Main">.*?</nav>', html, re.S).group(0)


def csrf_tokens(html):
    return re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)


def without_csrf(html):
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def test_each_reader_and_section_has_their_own_menu(client):
    ada, bea = make_user(display_name="Ada"), make_user(display_name="Bea", email_confirmed=False)
    looks = {}
    for who in (ada, bea, None):
        if who is None:
            client.logout()
        else:
            client.force_login(who)
        for page in ("help", "games:my_games"):
            response = client.get(reverse(page), follow=True)
            looks[(who and who.display_name, page)] = nav(response.content.decode())
    assert "Ada" in looks[("Ada", "help")] and "Bea" not in looks[("Ada", "help")]
    assert "Confirm your email" in looks[("Bea", "help")] and "Confirm your email" not in looks[("Ada", "help")]
    assert "Log in" in looks[(None, "help")] and "Log out" not in looks[(None, "help")]
    assert 'aria-current="page">Help' in looks[("Ada", "help")]
    assert 'aria-current="page">My games' in looks[("Ada", "games:my_games")]
    assert 'aria-current="page">My games' not in looks[("Ada", "help")]


def test_a_change_to_the_reader_shows_at_once(client):
    ada = make_user(display_name="Ada", email_confirmed=False)
    client.force_login(ada)
    assert "Confirm your email" in nav(client.get(reverse("help")).content.decode())
    ada.display_name, ada.email_confirmed = "Ada Lovelace", True
    ada.save(update_fields=["display_name", "email_confirmed"])
    html = nav(client.get(reverse("help")).content.decode())
    assert "Ada Lovelace" in html and "Confirm your email" not in html


def test_the_kept_menu_is_the_menu_rendered_with_the_looks_csrf_token(client, settings):
    client.force_login(make_user(display_name="Ada"))
    kept_part.PARTS.clear()
    first = client.get(reverse("help")).content.decode()
    again = client.get(reverse("help")).content.decode()
    assert kept_part.PARTS  # kept
    for html in (first, again):
        tokens = csrf_tokens(html)
        assert len(set(tokens)) == 1 and "\x00" not in html  # the menu's logout form has the page's token
    assert csrf_tokens(first)[0] != csrf_tokens(again)[0]
    settings.DEBUG = True  # never kept: rendered as it stands
    fresh = client.get(reverse("help")).content.decode()
    unmasked = [re.sub(r'value="[^"]+"', "", nav(html)) for html in (first, again, fresh)]
    assert unmasked[0] == unmasked[1] == unmasked[2]


@pytest.mark.parametrize("theme", ["auto", "light", "dark"])
def test_every_pages_kept_head_and_footer_are_the_pages_own(client, settings, theme):
    """What base.html keeps around its blocks (the head by the theme, the footer by the theme and
    the path) is what it renders when nothing is kept, for every theme and path."""
    client.force_login(make_user(display_name="Ada", theme=theme))
    kept_part.PARTS.clear()
    paths = ["/help/", "/help/?next=<b>&x=1", reverse("games:my_games")]
    kept = {path: [client.get(path).content.decode() for _ in range(2)] for path in paths}
    settings.DEBUG = True
    for path in paths:
        fresh = client.get(path).content.decode()
        assert f'data-theme="{theme}"' in fresh and 'aria-pressed="true">' in fresh
        for html in kept[path]:
            assert "\x00" not in html and len(set(csrf_tokens(html))) == 1
            assert without_csrf(html) == without_csrf(fresh)
    assert 'name="next" value="/help/?next=%3Cb%3E&amp;x=1"' in kept["/help/?next=<b>&x=1"][0]
