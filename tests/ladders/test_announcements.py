"""An organiser writes to every entrant from the ladder's admin page; the email goes through the
outbox, with an unsubscribe that stops announcements only."""

import re

import pytest
from django.contrib.admin.models import LogEntry
from django.core import mail
from django.urls import reverse
from django.utils.html import escape

from ladders import announcements as ladder_announcements
from ladders import challenges, services
from mail import announcements, links, outbox
from mail.models import Announcement, OutboundEmail
from tests.factories import committed, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_ladders(make_ladder, organisers):
    return make_ladder(4, organiser=organisers[0], slug="club"), make_ladder(3, organiser=organisers[1], slug="other")


def announce_page(ladder):
    return reverse("admin:ladders_ladder_announce", args=[ladder.pk])


def post(client, ladder, subject, body, **kwargs):
    with committed():
        return client.post(announce_page(ladder), {"subject": subject, "body": body}, **kwargs)


def shown_messages(response):
    shown = [(m.level_tag, m.message) for m in response.context["messages"]]
    for _, text in shown:
        assert escape(text) in response.text
    return shown


def test_an_organiser_writes_to_every_entrant_and_the_announcement_is_kept(client, organisers, two_ladders):
    (ladder, entrants), (other, others) = two_ladders
    entrants[3].player.event_announcements = False  # turned them off in the profile
    entrants[3].player.save()
    client.force_login(organisers[0])
    page = client.get(reverse("admin:ladders_ladder_change", args=[ladder.pk]))
    assert announce_page(ladder) in page.text  # the ladder's tools link to it
    mail.outbox.clear()
    response = post(
        client, ladder, "Club night moves", "The hall is booked on Tuesday.\n\nSee you Thursday.", follow=True
    )
    assert shown_messages(response) == [
        ("success", 'Sent "Club night moves" to 3 of 4 entrant(s) (the others turned announcements or email off).')
    ]
    sent = {m.to[0]: m for m in mail.outbox}
    assert set(sent) == {e.player.email for e in entrants[:3]}  # not the one who turned them off, nor ladder B
    message = sent[entrants[0].player.email]
    assert message.subject == "Club: Club night moves"
    assert "The hall is booked on Tuesday." in message.body and "From Olive" in message.body
    assert OutboundEmail.objects.filter(kind=OutboundEmail.Kind.ANNOUNCEMENT, status="sent").count() == 3
    kept = Announcement.objects.get()
    assert (kept.event, kept.sender, kept.subject, kept.recipients) == (
        f"ladder:{ladder.pk}",
        organisers[0],
        "Club night moves",
        3,
    )
    assert kept.body == "The hall is booked on Tuesday.\n\nSee you Thursday."
    # The page shows what was sent, by whom; the history and the admin log have it too.
    page = client.get(announce_page(ladder))
    assert "Club night moves" in page.text and "The hall is booked on Tuesday." in page.text and "Olive" in page.text
    assert ladder.history.get(kind="announcement").actor == organisers[0]
    assert LogEntry.objects.filter(user=organisers[0], object_id=str(ladder.pk)).exists()


def test_the_email_stops_announcements_only_in_one_click(client, organisers, two_ladders):
    (ladder, entrants), _ = two_ladders
    player = entrants[0].player
    with committed():
        ladder_announcements.announce(ladder, "News", "A new season soon.", actor=organisers[0])
    message = next(m for m in mail.outbox if m.to == [player.email])
    url = links.events_unsubscribe_url(player)
    assert message.extra_headers["List-Unsubscribe"] == f"<{url}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert url in message.body and url in message.alternatives[0][0]
    path = re.sub(r"^https?://[^/]+", "", url)
    confirm = client.get(path)
    player.refresh_from_db()
    assert confirm.status_code == 200 and player.event_announcements and '<form method="post"' in confirm.text
    # RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click", with no cookie and no CSRF token.
    done = client.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    player.refresh_from_db()
    assert done.status_code == 200 and "Event announcements stopped" in done.text
    assert not player.event_announcements and player.notify == "every_turn"  # turn emails go on
    mail.outbox.clear()
    with committed():
        ladder_announcements.announce(ladder, "More news", "Still coming.", actor=organisers[0])
        challenges.challenge(entrants[1], entrants[0], actor=None)  # a ladder notice still reaches them
    assert [m.subject for m in mail.outbox if m.to == [player.email]] == [f"{ladder.name}: B challenges you"]


def test_an_unsubscribe_for_turn_emails_does_not_pass_for_announcements(client, organisers, two_ladders):
    (ladder, entrants), _ = two_ladders
    player = entrants[0].player
    token = links.unsubscribe_token(player)  # the turn emails' token, another salt
    response = client.post(reverse("mail:unsubscribe_events", args=[token]))
    player.refresh_from_db()
    assert response.status_code == 400 and player.event_announcements


def test_an_announcement_owed_before_the_player_turned_them_off_is_not_sent(organisers, two_ladders):
    (ladder, entrants), _ = two_ladders
    player = entrants[0].player
    ladder_announcements.announce(ladder, "News", "Soon.", actor=organisers[0])  # owed, not yet committed
    announcements.stop(player)
    outbox.send_ready(list(OutboundEmail.objects.values_list("key", flat=True)))  # as the sweeper would
    row = OutboundEmail.objects.get(user=player)
    assert row.status == OutboundEmail.Status.SKIPPED and row.last_error == "the player stopped event announcements"


def test_the_profile_offers_the_choice(client):
    user = make_user()
    client.force_login(user)
    page = client.get(reverse("accounts:profile"))
    assert 'name="event_announcements"' in page.text and "news from my events" in page.text.lower()


@pytest.mark.parametrize(
    "subject, body, message",
    [
        ("", "Hello", "Nothing was sent: write a subject and a message."),
        ("Hello", "   \n  ", "Nothing was sent: write a subject and a message."),
        ("x" * 151, "Hello", "Nothing was sent: write a subject and a message."),
    ],
    ids=["no subject", "blank body", "subject too long"],
)
def test_an_empty_subject_or_message_is_refused_and_nothing_sent(
    client, organisers, two_ladders, ladder_state, subject, body, message
):
    (ladder, _), _ = two_ladders
    client.force_login(organisers[0])
    mail.outbox.clear()
    before = ladder_state(ladder)
    response = post(client, ladder, subject, body)
    assert response.status_code == 200 and shown_messages(response) == [("error", message)]
    assert response.context["form"].errors
    assert ladder_state(ladder) == before
    assert not Announcement.objects.exists() and not OutboundEmail.objects.filter(kind="announcement").exists()


def test_a_nul_in_the_message_is_refused_by_the_site_and_nothing_sent(client, organisers, two_ladders, ladder_state):
    (ladder, _), _ = two_ladders
    client.force_login(organisers[0])
    before = ladder_state(ladder)
    assert post(client, ladder, "Hello", "Hel\x00lo").status_code == 400
    assert ladder_state(ladder) == before and not Announcement.objects.exists()


def test_an_organiser_of_another_ladder_is_refused(client, organisers, two_ladders, ladder_state):
    (ladder, _), _ = two_ladders
    client.force_login(organisers[1])
    mail.outbox.clear()
    before = ladder_state(ladder)
    assert client.get(announce_page(ladder)).status_code == 403
    assert post(client, ladder, "Mine now", "Hello").status_code == 403
    assert ladder_state(ladder) == before and not Announcement.objects.exists()


def test_a_player_is_refused_and_so_is_the_service_for_a_non_organiser(client, organisers, two_ladders, ladder_state):
    (ladder, entrants), _ = two_ladders
    client.force_login(entrants[0].player)
    assert post(client, ladder, "Hi all", "Hello").status_code == 302  # to the admin's login
    with pytest.raises(services.LadderError) as refused:
        ladder_announcements.announce(ladder, "Hi all", "Hello", actor=organisers[1])
    assert refused.value.message == "Only an organiser of this ladder may write to its entrants."
    assert not Announcement.objects.exists()


def test_the_service_refuses_an_empty_message_and_a_ladder_with_nobody_on_it(make_ladder, organisers):
    ladder, _ = make_ladder(2, organiser=organisers[0])
    for subject, body, words in [
        (" ", "Hello", "Write a subject: nothing was sent."),
        ("Hello", "", "Write the message: nothing was sent."),
    ]:
        with pytest.raises(services.LadderError) as refused:
            ladder_announcements.announce(ladder, subject, body, actor=organisers[0])
        assert refused.value.message == words
    empty, _ = make_ladder(0, organiser=organisers[0])
    with pytest.raises(services.LadderError) as refused:
        ladder_announcements.announce(empty, "Hello", "Anyone?", actor=organisers[0])
    assert refused.value.message == "Nobody is on this ladder yet: nothing was sent."
    assert not Announcement.objects.exists() and not OutboundEmail.objects.filter(kind="announcement").exists()
