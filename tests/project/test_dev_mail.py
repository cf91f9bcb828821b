"""/dev/mail/: in development, a newcomer's window on the mail the site would have sent."""

import pytest
from django.core.mail import EmailMultiAlternatives, send_mail

pytestmark = pytest.mark.django_db

HTML = (
    '<!DOCTYPE html><html><head><meta charset="utf-8"><style>p { color: red }</style></head>'
    '<body style="background: #fbf8f1"><p class="brand" style="font-weight: 700">Your hand: 9\u2666 K\u2660</p>'
    '<script>alert(1)</script><a href="http://127.0.0.1:8000/m/move/abc/" onclick="x()" style="color: #1f5d3a">'
    'Play it</a><a href="javascript:alert(2)">bad</a></body></html>'
)


@pytest.fixture
def mailbox(settings, tmp_path):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = tmp_path
    settings.SITE_URL = "http://127.0.0.1:8000"
    settings.DEBUG = True
    return tmp_path


def test_each_mail_reads_as_a_mail_program_shows_it(client, mailbox):
    message = EmailMultiAlternatives(
        "Your move: Ann v Bob (game 3)",
        "Your hand: 9\u2666 K\u2660\nplay 9D   http://127.0.0.1:8000/m/move/abc/",
        "Cribbage by mail <cribbage@localhost>",
        ["ann@example.com"],
        reply_to=["reply+3_0.abc@reply.localhost"],
    )
    message.attach_alternative(HTML, "text/html")
    message.send()
    page = client.get("/dev/mail/", HTTP_HOST="127.0.0.1:8123").content.decode()
    assert "Your move: Ann v Bob (game 3)" in page and "ann@example.com" in page
    assert "reply+3_0.abc@reply.localhost" in page  # where an answer would go
    assert "9\u2666 K\u2660" in page and "\\u2666" not in page  # real suits, in both parts
    assert page.count("9\u2666 K\u2660") == 2
    # The links open on the port being served, not the configured SITE_URL's.
    assert 'href="http://127.0.0.1:8123/m/move/abc/"' in page and "127.0.0.1:8000" not in page
    # The HTML part keeps its look without style attributes (refused by the page's policy) or scripts.
    main = page[page.index("<main") :]
    assert " style=" not in main and "<script" not in main and "onclick" not in main and "javascript:" not in main
    assert 'data-mail-style="' in main and "font-weight: 700" in page[: page.index("<main")]
    # The mail is not passed as `messages`, which the page's message box would print.
    assert 'class="messages"' not in page and "{&#x27;subject" not in page


def test_plain_mail_newest_first_and_only_in_development(client, mailbox, settings):
    send_mail("Your move: Ann v Bob", "play 7C\nhttp://127.0.0.1:8000/m/move/abc/", "a@x.org", ["ann@x.org"])
    send_mail("Confirm your address", "http://127.0.0.1:8000/accounts/confirm/xyz/", "a@x.org", ["bob@x.org"])
    page = client.get("/dev/mail/").content.decode()
    assert page.index("Confirm your address") < page.index("Your move: Ann v Bob")
    assert '<a href="http://testserver/m/move/abc/"' in page
    settings.DEBUG = False
    assert client.get("/dev/mail/").status_code == 404


def test_no_mail_yet(client, mailbox):
    assert "No mail yet." in client.get("/dev/mail/").content.decode()
