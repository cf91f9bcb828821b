"""Cards as players say them: "the jack of clubs", "8 of clubs", "five of hearts", "the 7".

`normalise(tokens)` rewrites the tokens of one line so the notation can read them: a
card said in words becomes its code ("jack of clubs" -> "JC"), a rank said alone ("the
7", "a jack") stays for the notation to resolve against the hand (`rank_of`,
`notation.to_move`), and the words around cards ("I'll", "please", "the", "and") go.
Tokens it does not know are kept as they are, for the notation to judge.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import card_from_code

RANK_WORDS = {
    "ace": "A",
    "two": "2",
    "deuce": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "T",
    "jack": "J",
    "knave": "J",
    "queen": "Q",
    "king": "K",
}
# A rank written in figures: "7", "10" (the notation writes ten "T"). A letter alone ("A",
# "J") is no rank here: it is as likely an initial signing the reply.
RANK_TOKENS = {"10": "T"} | {str(r): str(r) for r in range(2, 10)}
RANK_NAMES = {
    "A": "ace",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
} | {str(r): str(r) for r in range(2, 10)}
SUIT_WORDS = {
    "spade": "S",
    "spades": "S",
    "heart": "H",
    "hearts": "H",
    "diamond": "D",
    "diamonds": "D",
    "club": "C",
    "clubs": "C",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
}
# Words a player may open a line with before the move: "I'll play ...", "ok, crib ...".
OPENINGS = {"i'll", "i’ll", "i", "will", "shall", "let", "me", "let's", "let’s", "please", "ok", "okay", "so", "now"}
# Words between or before cards: "the 7", "five of hearts and jack of diamonds".
JOINERS = {"the", "a", "an", "my", "and", "&", "+", "then", "with"}
CLOSINGS = {"please", "pls", "thanks", "thx", "cheers"}
_PUNCTUATION = ".,!;:?\"'“”()"


def _plain(token: str) -> str:
    return token.strip(_PUNCTUATION).lower()


def rank_of(token: str) -> str | None:
    """The rank a token names alone ("7", "10", "seven", "jack", "J"), or None."""
    plain = _plain(token)
    return RANK_WORDS.get(plain) or RANK_TOKENS.get(plain.upper())


def _starts_card(tokens: Sequence[str], i: int) -> bool:
    """Does a card (or a rank, or more joining words before one) start at tokens[i]?"""
    if i >= len(tokens):
        return False
    plain = _plain(tokens[i])
    if plain in JOINERS:
        return _starts_card(tokens, i + 1)
    if rank_of(plain):
        return True
    try:
        card_from_code(tokens[i].strip(_PUNCTUATION))
    except ValueError:
        return False
    return True


def normalise(tokens: Sequence[str]) -> list[str]:
    """The tokens with cards in words as codes, ranks alone as rank tokens, and the words
    around cards dropped (see the module's docstring)."""
    tokens = list(tokens)
    while len(tokens) > 1 and _plain(tokens[0]) in OPENINGS:
        tokens.pop(0)
    while len(tokens) > 1 and _plain(tokens[-1]) in CLOSINGS:
        tokens.pop()
    out: list[str] = []
    i = 0
    while i < len(tokens):
        token, plain = tokens[i], _plain(tokens[i])
        if plain in JOINERS and _starts_card(tokens, i + 1):
            i += 1
            continue
        rank = rank_of(token)
        if rank and i + 2 < len(tokens) and _plain(tokens[i + 1]) == "of" and _plain(tokens[i + 2]) in SUIT_WORDS:
            out.append(rank + SUIT_WORDS[_plain(tokens[i + 2])])
            i += 3
            continue
        out.append(token)  # a rank alone stays as said: rank_of reads "jack" and "7" alike
        i += 1
    return out
