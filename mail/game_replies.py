"""A reply to a seat's own address: checked (its player's address, authenticated), then its words
acted on: a move or several one a line, or another word ("status", "note", "rematch", "review",
and those other apps register with `answer_word`); every refusal answered in words."""

import hashlib
import logging
from collections.abc import Callable

from django.db import transaction

from games import challenges, talk, visits
from games import services as game_services
from games.cribbage import describe_move
from games.models import Event, Game
from games.presenter import refusals
from games.selectors import game_with_seats, view_for

from . import answers, challenge_replies, classify, parsing, review, services
from .models import InboundEmail, OutboundEmail
from .rendering import answer_message

log = logging.getLogger(__name__)

HELP = """How to play by replying: write your move on the first line of your reply, above the quoted email.
Several instructions go one a line, applied in order ("crib 9S QC", then "plan 7C 8S 6D 7H" below it,
or on the discard's line: "crib 9S QC plan 7C 8S 6D 7H"); if one is refused, those above it stand and
none below it is applied. Nothing in the quoted email is read.

  crib 5H JD     lay these cards away to the crib (or "discard 5H JD", or just "5H JD")
  play 7C        play this card (or just "7C")
  plan 7C 8D 5H KS   a pegging plan: at each of your turns in this hand's play, your first
                 planned card that fits is played for you, with no email (one that would take
                 the count past 31 waits); name all your cards or only the first few
  plan score first, on 5 play TH, 7C 8D ask   rules first, in the order written, then the cards:
                 "score first" plays the card that pegs most now, if one pegs (ties: your order);
                 "on 5 play TH" plays TH when the card laid just before yours is a 5;
                 "ask" stops the plan there and sends you a turn email
  plan score first, low first   rules alone: "low first" / "high first" play the lowest / highest
                 card that fits, so these two play every card of the hand for you
  plan clear     drop the plan (a new plan replaces the old; a plan ends with the hand's play)
  plan always score first, low first   a plan for every hand, in all your games (set at each
                 deal; a plan for one hand replaces it for that hand); "plan always clear" drops it
                 Nobody else sees your plan, not even a partner. Under muggins a planned card
                 claims what it pegs.
  play 7C claim 2   under muggins: play a card and say what you peg for it
  count 12       under muggins: the points you claim for your show; said in the play (once the
                 starter is turned), it is your hand's count ahead: counted for you when your
                 show comes, with no email (you then call no muggins on the count before yours)
  muggins        take the points an opponent missed
  resign         concede the game
  more time 2    give your opponent 2 more days for their move (or "extend 2"; 1 to 14 days)
  claim          win the game of an opponent who ran out of time, when the game lets you choose
  status         the game as it stands, and your moves
  games          every game of yours: whose turn, the deadlines, each game's reply address
  vacation 3     start a vacation of 3 days: the clocks of all your games stop; "back" ends it early
  say Good luck! a word to the other players (at the top of their next email; never a move)
  note ...       your private note on this game (nobody else sees it; "note" alone deletes it)
  rematch        (to the game-over email) challenge the same players to a new game, same settings
  review         once the game is over: the whole review, every throw and pegging choice
  standings      in a ladder game: the ladder's table
  unsubscribe    no more turn emails (your games go on; your profile turns them on again)
  help           this help

Cards: rank A 2-9 T (or 10) J Q K, then suit S H D C (or the symbols), upper or lower case: 10h, TD, 5♥;
or in words: "play the jack of clubs", "crib five of hearts and 8 of clubs", "the 7" (when you hold one 7).
The go is said for you whenever you cannot play."""


# The answer to a reply whose only instruction is in the text it quotes: a quoted line is never
# acted on (it may be an old move of the player's own, quoted back by their client).
QUOTED_ONLY = "I could not find an instruction above the quoted text."


def act(row, seat, message):
    """Act on `message`, sent to the reply address of `seat` (a player's): (InboundEmail status, outcome)."""
    game, number, player = seat.game, seat.number, seat.player
    sender = classify.sender_of(message)
    if sender != player.email.lower():
        log.warning(
            "Inbound %s refused: from %s, not the player of game %s seat %s.", row.message_id, sender, game.pk, number
        )
        _answer(
            game,
            number,
            player,
            "stranger",
            include_state=False,
            problem=(
                f"A message to your reply address for game {game.pk} came from another address ({sender}) "
                "and was refused: only the address this email is sent to can move for you. "
                "If it was you, reply from this address."
            ),
        )
        return InboundEmail.Status.REFUSED, f"sender {sender} is not the player"
    if row.auth_failure or row.spam_detected:
        # Forged or spam: nothing applied and nothing answered (an answer would go to the forged address).
        why = row.auth_failure or "the provider flagged it as spam"
        log.warning("Inbound %s refused unanswered: %s.", row.message_id, why)
        return InboundEmail.Status.REFUSED, why
    visits.note_seen(seat)  # the player is back (the quiet inbox and reminders count it)
    subject = str(message.get("Subject") or "")
    reply = parsing.read_reply(row.stripped_text, classify.body_text(message), subject)
    commands = reply.commands
    if not commands and subject.strip().lower().startswith("unsubscribe"):
        commands = [parsing.Command("unsubscribe", "unsubscribe")]
    if not commands:
        words = reply.words
        _answer(
            game,
            number,
            player,
            "unreadable",
            words=words,
            problem=(QUOTED_ONLY if reply.only_quoted else "We could not read a move in your reply.")
            + ' Write the move on the first line, above the quoted email, e.g. "play 7C". '
            'Reply "help" for all the words.',
        )
        return InboundEmail.Status.ANSWERED, ("only quoted: " if reply.only_quoted else "unreadable: ") + repr(words)
    if len(commands) == 1:
        status, outcome = _act(row, game, number, player, commands[0])
    else:
        status, outcome = _act_lines(row, game, number, player, commands)
    if reply.unread:
        _not_read(game, number, player, reply.unread)
        outcome += f"; not read below line {parsing.MAX_LINES}: " + " / ".join(reply.unread)
    return status, outcome


def _not_read(game, number, player, lines):
    """Tell the player which instruction lines stood too far down their reply to be read."""
    named = "; ".join(f'"{line}"' for line in lines)
    _answer(
        game,
        number,
        player,
        "not_read",
        words=lines[0],
        problem=(
            f"Only the first {parsing.MAX_LINES} lines of a reply are read. These lines below them were "
            f"not read and nothing of them was applied: {named}. Send them again near the top of a reply."
        ),
    )


def move_key(row, number, line=1):
    """The idempotency key of a reply's `line`th move: its Message-ID, the seat's (a sender picks
    their own Message-ID, so another player's cannot stand in for this seat's), and the line."""
    key = f"{number}:{row.message_id}"
    return (key if line == 1 else f"{key}#{line}")[:255]


def _act_lines(row, game, number, player, commands):
    """Several instructions, one a line, applied in order in one transaction: when one is
    refused those before it stand, none after it is applied, and the answer says which line
    failed and why. Emails the moves owe go after the last line (on commit), so a turn that
    starts with one line and ends with the next sends nothing. Other words ("status", "more
    time 2", ...) are answered after the moves."""
    # Moves (words in the engine's notation) may share a reply; the others are answered one by one.
    moves = [c for c in commands if c.reading is not None]
    others = [c for c in commands if c.reading is None]
    done, made, failed = [], [], None
    with transaction.atomic():
        for line, command in enumerate(moves, start=1):
            game = Game.objects.get(pk=game.pk)
            if line > 1 and game.is_finished:  # a line above ended the game: the rest is moot, no refusal
                break
            key = move_key(row, number, line)
            try:
                result = _submit(game, number, player, command, key)
            except game_services.MoveRefused as exc:
                failed = (line, command, view_for(game, number), exc)
                break
            done.append("duplicate" if result.duplicate else describe_move(result.move))
            made += [] if result.duplicate else [result.move]
    outcomes = [f"line {i}: {words}" for i, words in enumerate(done, start=1)]
    if failed is None and made:
        _acknowledge(game, number, player, " / ".join(c.words for c in moves), made)
    if failed is not None:
        line, command, view, refusal = failed
        kind, words = refusals.answer(refusal.code, refusal.params, view, _pages_words(refusal))
        before = " The lines before it were applied." if line > 1 else ""
        after = " Nothing after it was applied." if line < len(moves) else ""
        game.refresh_from_db()
        _answer(
            game,
            number,
            player,
            kind,
            words=command.words,
            problem=(f'Line {line} of your reply ("{command.words}") was not applied: {words}{before}{after}'),
        )
        outcomes.append(f"line {line} refused ({kind}): {words}")
    for command in others if failed is None else ():
        outcomes.append(_act(row, game, number, player, command)[1])
    status = InboundEmail.Status.APPLIED if done else InboundEmail.Status.ANSWERED
    return status, "; ".join(outcomes)


# Reply words that another app answers, by command kind (the clock's "more time" and
# "claim", registered in ClockConfig.ready()): handler(game, number, player, command,
# answer) -> (InboundEmail status, outcome), where answer(game, number, player, kind, ...)
# owes the reply email.
REPLY_WORDS: dict[str, Callable] = {}


def answer_word(kind, handler):
    REPLY_WORDS[kind] = handler


def _act(row, game, number, player, command):
    kind = command.kind
    if kind == "help":
        _answer(game, number, player, "help", words=command.words, problem=HELP)
        return InboundEmail.Status.ANSWERED, "help"
    if kind == "status":
        _answer(game, number, player, "status", words=command.words, problem="Here is the game as it stands.")
        return InboundEmail.Status.ANSWERED, "status"
    if kind == "unsubscribe":
        services.stop_turn_emails(player)
        _answer(
            game,
            number,
            player,
            "unsubscribe",
            include_state=False,
            problem=(
                "You will get no more turn emails. Your games go on: play them on the site, "
                "and turn emails back on in your profile."
            ),
        )
        return InboundEmail.Status.ANSWERED, "unsubscribed"
    if kind in REPLY_WORDS:
        return REPLY_WORDS[kind](game, number, player, command, _answer)
    if kind in ("note", "say"):
        return _table_word(game, number, player, command)
    if kind == "rematch":
        try:
            said = challenge_replies.rematch(game, number, player)
        except challenges.ChallengeError as exc:
            _answer(game, number, player, "rematch", words=command.words, include_state=False, problem=str(exc))
            return InboundEmail.Status.ANSWERED, f"rematch refused: {exc}"
        _answer(game, number, player, "rematch", words=command.words, include_state=False, problem=said)
        return InboundEmail.Status.APPLIED, "rematch asked"
    if kind == "review":
        return _review(game, number, player, command)
    try:
        result = _submit(game, number, player, command, move_key(row, number))
    except game_services.MoveRefused as exc:
        return _refused(game, number, player, command, view_for(game, number), exc)
    if result.duplicate:
        return InboundEmail.Status.APPLIED, "duplicate"
    _acknowledge(game, number, player, command.words, [result.move])
    return InboundEmail.Status.APPLIED, describe_move(result.move)


def _acknowledge(game, number, player, words, made):
    """For a player who asked for it (their profile), what the reply did and the game now."""
    if not player.acknowledge_replies:
        return
    done = ". ".join(describe_move(move, "done") for move in made)
    _answer(game, number, player, "applied", words=words, changed=True, problem=f"Done. {done}.")


def _submit(game, number, player, command, key):
    """The move a reply's line names, made (a MoveResult with its Move): its words read by the
    move service under the game's lock. MoveRefused when the words make no move
    (UnreadableWords), or when the game or its rules refuse it."""
    return game_services.submit_words(
        game, number, command.words, source=Event.Source.EMAIL, idempotency_key=key, actor=player
    )


def _pages_words(refusal):
    """The game pages' words for a refusal, which a reply's answer falls back on (none for
    words that make no move: the answer's own table says every one of them)."""
    return "" if isinstance(refusal, game_services.UnreadableWords) else refusal.message


def _refused(game, number, player, command, view, refusal):
    """Answer a reply whose words make no move, or whose move the rules refuse; nothing changed."""
    kind, words = refusals.answer(refusal.code, refusal.params, view, _pages_words(refusal))
    _answer(game, number, player, kind, words=command.words, problem=words)
    return InboundEmail.Status.ANSWERED, f"{kind}: {words}"


def _review(game, number, player, command):
    """ "review": the whole review of a finished game; before the end, why there is none yet."""
    game.refresh_from_db()
    if not game.is_finished:
        _answer(
            game,
            number,
            player,
            "review",
            words=command.words,
            problem=(
                "The review opens when the game ends: every player then gets every throw and pegging "
                "choice judged. Until then there is no engine help in this game."
                if not game.help_allowed_for(number)
                else "The review opens when the game ends; until then the coach's notes come with your turn emails."
            ),
        )
        return InboundEmail.Status.ANSWERED, "review: the game is on"
    answers.owe(OutboundEmail.Kind.REVIEW, player, "review", context={}, game_id=game.pk, seat=number)
    return InboundEmail.Status.ANSWERED, "review owed"


def compose_review(row):
    """The review asked for by reply (OutboundEmail.Kind.REVIEW), for the row's seat alone."""
    try:
        game = game_with_seats(row.game_id)
    except Game.DoesNotExist:
        return "the game is gone"
    return review.review_message(game, row.seat, row.user)


def _table_word(game, number, player, command):
    """ "note ..." saves the player's private note; "say ..." tells the other players (shown at
    the top of their next email, so nobody gets an email for it). Answered only when refused."""
    try:
        if command.kind == "note":
            talk.save_note(game, player, command.extra.get("text", ""))
            return InboundEmail.Status.APPLIED, "note saved"
        talk.say(game, player, command.extra.get("text", ""), source="email")
    except talk.TableError as exc:
        _answer(game, number, player, command.kind, words=command.words, include_state=False, problem=exc.message)
        return InboundEmail.Status.ANSWERED, f"{command.kind}: {exc.message}"
    return InboundEmail.Status.APPLIED, "said to the table"


def _answer(game, seat, player, kind, *, problem, words=None, include_state=True, changed=False):
    """Owe the answer to a reply, at most once per address, kind and words in the window (a
    player's second try, in other words, is answered too; the same words again are not). It is
    rendered when sent, telling the seat's own view of the game then (compose_answer)."""
    said = " ".join((words or "").lower().split())
    limit = f"{kind}:{hashlib.sha256(said.encode()).hexdigest()[:8]}" if said else kind
    context = {"problem": problem, "words": words, "include_state": include_state, "changed": changed}
    answers.owe(OutboundEmail.Kind.REPLY_ANSWER, player, limit, context=context, game_id=game.pk, seat=seat)


def compose_answer(row):
    """An answer to a reply (OutboundEmail.Kind.REPLY_ANSWER): what the row says, and the game as
    the row's seat sees it now."""
    try:
        game = game_with_seats(row.game_id)
    except Game.DoesNotExist:
        return "the game is gone"
    context = row.context
    return answer_message(
        game,
        row.seat,
        row.user,
        problem=context["problem"],
        words=context["words"],
        include_state=context["include_state"],
        changed=context["changed"],
    )
