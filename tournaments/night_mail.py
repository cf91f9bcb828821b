"""The club night's results by email (tournaments.club_nights owes them): a night's table and the
season's so far when a night closes; the season's final table when it ends. Rendered when sent,
from the tables as they stand."""

from django.conf import settings

from mail import event_replies, messages

from . import selectors
from .models import ClubNight, NightGame, Tournament


def compose(row):
    """The outbox's composer for club night results and reports to confirm (registered in
    TournamentsConfig.ready())."""
    if "report" in row.context:
        return _report(row)
    night = ClubNight.objects.select_related("tournament").filter(pk=row.context.get("night")).first()
    season = night.tournament if night else Tournament.objects.filter(pk=row.context.get("season")).first()
    if season is None:
        return "the club night is gone"
    context = {
        "season": season,
        "night": night,
        "night_rows": selectors.night_table(night) if night else None,
        "rows": selectors.table(season),
        "awards": list(night.awards.select_related("entrant__player")) if night else [],
        "url": f"{settings.SITE_URL}{season.get_absolute_url()}",
    }
    return messages.build("tournaments/email/club_night", context, to=row.user.email, user=row.user)


def _report(row):
    """A player reported a game with this one: confirm it or dispute it, by reply or on the page."""
    item = (
        NightGame.objects.select_related("night__tournament", "first__player").filter(pk=row.context["report"]).first()
    )
    if item is None or item.status != NightGame.Status.REPORTED:
        return "the report was answered already"
    season = item.night.tournament
    context = {"item": item, "season": season, "url": f"{settings.SITE_URL}{season.get_absolute_url()}"}
    reply_to = event_replies.event_address("event", season.slug)
    return messages.build(
        "tournaments/email/club_night_report", context, to=row.user.email, user=row.user, reply_to=reply_to
    )
