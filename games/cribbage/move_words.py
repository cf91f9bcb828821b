"""The words of a move: what a player types for it ("crib 5H JD", "play 7C claim 2").

One module below the rules and the notation both: the engine's own messages (the legal
moves an `IllegalMove` lists, the claims `moves_to_offer` folds into one) and the notation
(`notation.write`, `move.describe`) say a move the same way, and neither the rules nor the
typed `Move` need the reader of a player's words to do it.
"""

from __future__ import annotations

from .plans import plan_words

__all__ = ["write"]


def write(move: dict, blank: str | None = None) -> str:
    """The words a player would type for `move`: "crib 5H JD", "play 7C", "count 12", "muggins".

    `blank` stands for a number the player must say themselves (under muggins,
    the claim of a play and the points of a count): "play 7C claim N", "count N".
    """
    kind = move.get("kind")
    if kind == "discard":
        return "crib " + " ".join(move["cards"])
    if kind == "play":
        claim = move["claim"] if "claim" in move else blank
        return f"play {move['card']}" + (f" claim {claim}" if claim is not None else "")
    if kind in ("count", "count_ahead"):
        return f"count {move['points']}" if "points" in move else f"count {blank or '<points>'}"
    if kind == "forfeit":
        return f"forfeit {move['reason']}" if move.get("reason") else "forfeit"
    if kind == "cut_for_deal":
        return "cut " + " / ".join(" ".join(r) for r in move["cuts"])
    if kind == "plan":
        return plan_words(move)
    if kind == "table_result":
        return "result at the table " + "-".join(str(s) for s in move["scores"])
    return str(kind)
