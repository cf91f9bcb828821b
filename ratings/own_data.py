"""What ratings keeps about a player, for their download (accounts.signals.own_data, connected
in RatingsConfig.ready()). A deleted account keeps its ratings under "a former player", as its
seats keep its moves: the other players' ratings were computed against it; its page is gone."""


def _iso(value):
    return value.isoformat() if value else None


def own_data(sender, user, **kwargs):
    """The player's ratings, each rated game's change, and their profile's tallies."""
    ratings = [
        {"family": r.family, "mu": r.mu, "sigma": r.sigma, "games": r.games, "shown": str(r.shown)}
        for r in user.ratings.order_by("family")
    ]
    changes = [
        {
            "game": c.game_id,
            "family": c.family,
            "before": {"mu": c.mu_before, "sigma": c.sigma_before},
            "after": {"mu": c.mu_after, "sigma": c.sigma_after},
            "finished_at": _iso(c.finished_at),
        }
        for c in user.rating_changes.order_by("finished_at", "game_id", "family")
    ]
    tallies = list(
        user.player_games.order_by("finished_at", "game_id").values(
            "game_id",
            "seat",
            "won",
            "skunks_given",
            "skunk_taken",
            "hands",
            "hand_points",
            "cribs",
            "crib_points",
            "best_hand",
            "best_hand_cards",
            "twenty_nines",
        )
    )
    return {"ratings": ratings, "rating_changes": changes, "profile_tallies": tallies}
