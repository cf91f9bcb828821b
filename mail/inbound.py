"""Replies to turn emails: read, check and act on what mail.reception stored.

`mail.reception.receive()` (from the webhook or `receive_email`) stores the
message once per Message-ID and queues `process()`. `process()` decides, in
this order:

1. automatic mail (auto-replies, bounces, our own mail) is ignored: no answer;
2. the recipient must be one of our signed reply addresses, else the message
   is dropped and logged: no answer (no backscatter);
3. the sender must be that seat's player, and pass the provider's SPF/DKIM/
   DMARC checks (mail.authentication); otherwise it is refused and the
   player (not the sender) is told, at most once per window;
4. the player's words are read and the move submitted against the current
   state, with the Message-ID as its idempotency key; a reply that cannot be
   applied is answered with what was wrong and the moves legal now.
"""

import hashlib
import logging
import re
from collections.abc import Callable
from email.utils import getaddresses, parseaddr

from anymail.inbound import AnymailInboundMessage
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.html import strip_tags

from games import challenges, cribbage, talk, visits
from games import services as game_services
from games.cribbage import notation
from games.models import Event, Game, Seat
from games.selectors import view_for

from . import challenge_replies, event_replies, links, parsing, refusals, review, services
from .models import InboundEmail
from .rendering import answer_message, done_words

log = logging.getLogger(__name__)

_OUT_OF_OFFICE = re.compile(
    r"^(auto(matic)?[ -]?(reply|response|antwort)|auto:|out of (the )?office|away from|"
    r"r[ée]ponse automatique|absence|abwesenheit|automatische antwort|abwesend|vacation)",
    re.IGNORECASE,
)
_ROBOT_SENDERS = re.compile(r"^(mailer-daemon|postmaster|no-?reply|do-?not-?reply|bounces?)(\+.*)?$", re.IGNORECASE)
RECIPIENT_HEADERS = (
    "Delivered-To",
    "X-Original-To",
    "X-Gm-Original-To",
    "Envelope-To",
    "X-Forwarded-To",
    "To",
    "Cc",
    "Resent-To",
)

HELP = """How to play by replying: write your move on the first line of your reply, above the quoted email.
Several instructions go one a line, applied in order ("crib 9S QC", then "plan 7C 8S 6D 7H" below it);
if one is refused, those above it stand and none below it is applied.

  crib 5H JD     lay these cards away to the crib (or "discard 5H JD", or just "5H JD")
  play 7C        play this card (or just "7C")
  plan 7C 8D 5H KS   a pegging plan: at each of your turns in this hand's play, your first
                 planned card that fits is played for you, with no email (one that would take
                 the count past 31 waits); name all your cards or only the first few
  plan score first, on 5 play TH, 7C 8D ask   rules first, in the order written, then the cards:
                 "score first" plays the card that pegs most now, if one pegs (ties: your order);
                 "on 5 play TH" plays TH when the card laid just before yours is a 5;
                 "ask" stops the plan there and sends you a turn email
  plan clear     drop the plan (a new plan replaces the old; a plan ends with the hand's play)
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
  say Good luck! a word to the other players (at the top of their next email; never a move)
  note ...       your private note on this game (nobody else sees it; "note" alone deletes it)
  rematch        (to the game-over email) challenge the same players to a new game, same settings
  review         once the game is over: the whole review, every throw and pegging choice
  standings      in a ladder game: the ladder's table
  help           this help

Cards: rank A 2-9 T (or 10) J Q K, then suit S H D C (or the symbols), upper or lower case: 10h, TD, 5♥;
or in words: "play the jack of clubs", "crib five of hearts and 8 of clubs", "the 7" (when you hold one 7).
The go is said for you whenever you cannot play."""


def unread_batch(now=None, limit=200):
    """Ids of stored replies still waiting to be read a while after they arrived: their reading
    was never queued (the broker was down) or its task was lost. The sweeper queues them again;
    `process` reads each once."""
    now = now or timezone.now()
    return list(
        InboundEmail.objects.filter(status=InboundEmail.Status.RECEIVED, received_at__lt=now - services.REQUEUE_AFTER)
        .order_by("received_at")
        .values_list("pk", flat=True)[:limit]
    )


# --- Classifying -------------------------------------------------------------------


def automatic_reason(message, row):
    """Why this message is automatic mail we must never answer, or ""."""
    auto = (message.get("Auto-Submitted") or "").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = (message.get("Precedence") or "").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder"):
        if message.get(name):
            return name
    if (message.get("X-Auto-Response-Suppress") or "").lower() in ("oof",):
        return "X-Auto-Response-Suppress: OOF"
    if _OUT_OF_OFFICE.search((message.get("Subject") or "").strip()):
        return "out-of-office subject"
    if row.envelope_sender == "<>":
        return "bounce (empty return path)"
    if message.get_content_type() == "multipart/report":
        return "bounce (delivery report)"
    sender = sender_of(message)
    if _ROBOT_SENDERS.match(sender.partition("@")[0]):
        return f"robot sender {sender}"
    if sender in services.own_addresses() or sender.endswith("@" + settings.REPLY_DOMAIN.lower()):
        return "our own mail"
    return ""


def sender_of(message):
    return parseaddr(str(message.get("From") or ""))[1].strip().lower()


def _recipients(message, row):
    candidates = [row.envelope_recipient] if row.envelope_recipient else []
    for name in RECIPIENT_HEADERS:
        candidates += [addr for _, addr in getaddresses(message.get_all(name) or [])]
    return candidates


def recipient_seat(message, row):
    """(game id, seat) from the first of our reply addresses the message was sent to, or None."""
    for address in _recipients(message, row):
        found = links.read_reply_address(address)
        if found:
            return found
    return None


def _body_text(message):
    if message.text:
        return message.text
    html = message.html or ""
    html = re.sub(r"(?is)<blockquote.*", "", html)  # quoted part of an HTML-only reply
    html = re.sub(r'(?is)<div class="gmail_quote.*', "", html)
    html = re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", html)
    return strip_tags(html)


# --- Processing ---------------------------------------------------------------------


def process(inbound_id):
    """Read one stored message and act on it. Safe to run twice: the second run does nothing."""
    claimed = InboundEmail.objects.filter(pk=inbound_id, status=InboundEmail.Status.RECEIVED).update(
        status=InboundEmail.Status.PROCESSING
    )
    if not claimed:
        return None
    row = InboundEmail.objects.get(pk=inbound_id)
    try:
        status, outcome = _process(row)
    except (OperationalError, InterfaceError):
        # The database was busy or away: read the message again later (the task retries).
        InboundEmail.objects.filter(pk=row.pk).update(status=InboundEmail.Status.RECEIVED)
        raise
    except Exception as exc:
        log.exception("Reading inbound %s failed.", row.message_id)
        status, outcome = InboundEmail.Status.ANSWERED, f"error: {exc!r}"
    InboundEmail.objects.filter(pk=row.pk).update(
        status=status, outcome=outcome[:2000], processed_at=timezone.now(), game_id=row.game_id, seat=row.seat
    )
    return status


def _process(row):
    message = AnymailInboundMessage.parse_raw_mime(row.raw)
    reason = automatic_reason(message, row)
    if reason:
        log.info("Inbound %s ignored: %s.", row.message_id, reason)
        return InboundEmail.Status.IGNORED, reason
    found = recipient_seat(message, row)
    challenge = challenge_replies.challenge_of(_recipients(message, row)) if found is None else None
    if challenge is not None:
        return challenge_replies.act(
            row, challenge, sender_of(message), parsing.reply_texts(row.stripped_text, _body_text(message))
        )
    event = event_replies.event_of(_recipients(message, row)) if found is None else None
    if event is not None:  # an event's own address (a ladder's): its app reads the words
        texts = parsing.reply_texts(row.stripped_text, _body_text(message))
        return event_replies.act(row, event, sender_of(message), texts, str(message.get("Subject") or ""))
    if found is None:
        log.warning("Inbound %s dropped: not sent to a valid reply address.", row.message_id)
        return InboundEmail.Status.DROPPED, "no valid reply address"
    game_id, number = found
    seat = Seat.objects.select_related("player", "game").filter(game_id=game_id, number=number).first()
    if seat is None or seat.player is None:
        log.warning("Inbound %s dropped: game %s seat %s has no player.", row.message_id, game_id, number)
        return InboundEmail.Status.DROPPED, "no such seat"
    row.game_id, row.seat = game_id, number
    game, player = seat.game, seat.player
    sender = sender_of(message)
    if sender != player.email.lower():
        log.warning(
            "Inbound %s refused: from %s, not the player of game %s seat %s.", row.message_id, sender, game_id, number
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
        why = row.auth_failure or "the provider flagged it as spam"
        log.warning("Inbound %s refused: %s.", row.message_id, why)
        _answer(
            game,
            number,
            player,
            "unauthenticated",
            include_state=False,
            problem=(
                f"A message from your address to game {game.pk} was refused because it could not be "
                f"verified as yours ({why}). Nothing was changed."
            ),
        )
        return InboundEmail.Status.REFUSED, why
    visits.note_seen(seat)  # the player is back (the quiet inbox and reminders count it)
    texts = parsing.reply_texts(row.stripped_text, _body_text(message))
    commands = parsing.read_commands(texts)
    if not commands and (message.get("Subject") or "").strip().lower().startswith("unsubscribe"):
        commands = [parsing.Command("unsubscribe", "unsubscribe")]
    if not commands:
        words = parsing.first_words(texts)
        _answer(
            game,
            number,
            player,
            "unreadable",
            words=words,
            problem=(
                "We could not read a move in your reply. Write the move on the first line, "
                'above the quoted email, e.g. "play 7C". Reply "help" for all the words.'
            ),
        )
        return InboundEmail.Status.ANSWERED, f"unreadable: {words!r}"
    if len(commands) == 1:
        return _act(row, game, number, player, commands[0])
    return _act_lines(row, game, number, player, commands)


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
            view = view_for(game, number)
            key = row.message_id if line == 1 else f"{row.message_id}#{line}"
            try:
                result, move = _submit(game, number, player, command, view, key)
            except cribbage.InvalidMove as exc:
                failed = (line, command, view, exc.code, exc.params, "")
                break
            except game_services.MoveError as exc:
                failed = (line, command, view, exc.code, exc.params, exc.message)
                break
            done.append("duplicate" if result.duplicate else notation.write(move))
            made += [] if result.duplicate else [move]
    outcomes = [f"line {i}: {words}" for i, words in enumerate(done, start=1)]
    if failed is None and made:
        _acknowledge(game, number, player, " / ".join(c.words for c in moves), made)
    if failed is not None:
        line, command, view, code, params, message = failed
        kind, words = refusals.answer(code, params, view, message)
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
# sends the reply email.
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
    view = view_for(game, number)
    try:
        result, move = _submit(game, number, player, command, view, row.message_id)
    except cribbage.InvalidMove as exc:
        return _refused(game, number, player, command, view, exc.code, exc.params)
    except game_services.MoveError as exc:
        return _refused(game, number, player, command, view, exc.code, exc.params, exc.message)
    if result.duplicate:
        return InboundEmail.Status.APPLIED, "duplicate"
    _acknowledge(game, number, player, command.words, [move])
    return InboundEmail.Status.APPLIED, notation.write(move)


def _acknowledge(game, number, player, words, made):
    """For a player who asked for it (their profile), what the reply did and the game now."""
    if not player.acknowledge_replies:
        return
    done = ". ".join(done_words(move) for move in made)
    _answer(game, number, player, "applied", words=words, changed=True, problem=f"Done. {done}.")


def _submit(game, number, player, command, view, key):
    """The move a reply's line names, made: (MoveResult, move). InvalidMove when the words make
    no move; MoveError (GameOver, an engine refusal) when the game or its rules refuse it."""
    if game.is_finished:
        raise game_services.GameOver("This game is over.", code="game_over")
    if command.reading is None:
        raise cribbage.InvalidMove("not_a_move", f"{command.words!r} is not a move", words=command.words)
    move = notation.to_move(command.reading, view["phase"], muggins=view["rules"]["muggins"], hand=view.get("hand"))
    result = game_services.submit_move(game, number, move, source=Event.Source.EMAIL, idempotency_key=key, actor=player)
    return result, move


def _refused(game, number, player, command, view, code, params, message=""):
    """Answer a reply whose words make no move, or whose move the rules refuse; nothing changed."""
    kind, words = refusals.answer(code, params, view, message)
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
    if not services.may_answer(player.email, "review"):
        return InboundEmail.Status.ANSWERED, "review: already sent in this window"
    try:
        review.review_message(game, number, player).send()
    except Exception:
        log.exception("The review of game %s seat %s could not be sent.", game.pk, number)
        return InboundEmail.Status.ANSWERED, "review: could not be sent"
    return InboundEmail.Status.ANSWERED, "review sent"


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
    """Answer a reply, at most once per address, kind and words in the window (a player's
    second try, in other words, is answered too; the same words again are not). Never raises."""
    said = " ".join((words or "").lower().split())
    limit = f"{kind}:{hashlib.sha256(said.encode()).hexdigest()[:8]}" if said else kind
    if not services.may_answer(player.email, limit):
        log.info("Answer %s to %s not sent: already answered in this window.", kind, player.pk)
        return False
    try:
        game.refresh_from_db()
        answer_message(
            game, seat, player, problem=problem, words=words, include_state=include_state, changed=changed
        ).send()
    except Exception:
        log.exception("Answer %s for game %s seat %s could not be sent.", kind, game.pk, seat)
        return False
    return True
