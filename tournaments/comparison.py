"""A duplicate round's hands side by side: for each deal, every table's throw, play and count on
the same cards. Read only once the round is complete and every one of its games is over, so no
card of a game still in play is shown (games.selectors.open_deals refuses those as well)."""

from games.selectors import open_deals

from .models import PairingGame, Round, Tournament


def comparable(rnd):
    """Whether the round's hands may be shown: a complete round of a duplicate event."""
    return rnd.tournament.kind == Tournament.Kind.DUPLICATE and rnd.status == Round.Status.COMPLETE


def round_hands(rnd):
    """[{number, dealer, dealt (each seat's six), starter, tables: [{table, names, deal, game_id}]}]
    a deal each, in order; None while the round may not be shown (comparable, open_deals)."""
    if not comparable(rnd):
        return None
    games = (
        PairingGame.objects.filter(pairing__round=rnd)
        .select_related("game", "pairing__home__player", "pairing__away__player")
        .order_by("pairing__table", "number")
    )
    tables = []
    for pg in games:
        deals = open_deals(pg.game)
        if deals is None:
            return None
        home, away = str(pg.pairing.home.player), str(pg.pairing.away.player) if pg.pairing.away else ""
        names = [home, away] if pg.home_seat == 0 else [away, home]
        tables.append(
            {"table": pg.pairing.table, "names": names, "deals": {d.number: d for d in deals}, "game": pg.game}
        )
    numbers = sorted({n for t in tables for n in t["deals"]})
    out = []
    for number in numbers:
        first = next(t["deals"][number] for t in tables if number in t["deals"])
        out.append(
            {
                "number": number,
                "dealer": first.dealer,
                "dealt": [seat.dealt for seat in first.seats],
                "starter": first.starter,
                "tables": [
                    {"table": t["table"], "names": t["names"], "game": t["game"], "deal": t["deals"].get(number)}
                    for t in tables
                ],
            }
        )
    return out
