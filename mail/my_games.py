"""Words about the player rather than one game's move, answered by mail itself: "plan always ..."
(a plan for every hand, User.standing_plan) and "games" (every game of mine, whose turn, the
deadlines, each with its reply address)."""

from django.urls import reverse

from accounts import services as accounts
from games import cribbage, selectors, times
from games import services as game_services
from games.models import Event, Game

from . import links
from .models import InboundEmail


def games_lines(user):
    """Every game of `user` under way, theirs to move first, each with its deadline and the address
    that moves in it; then how many are over."""
    lines, finished = [], 0
    for game in selectors.games_for(user):
        if game.is_finished:
            finished += 1
            continue
        seat = selectors.seat_of(game, user)
        others = " v ".join(str(s) for s in selectors.seats_with_players(game) if s.number != seat.number)
        if seat.to_act:
            when = (
                f"by {times.deadline_text(seat.deadline, user)}" if seat.deadline and not game.practice else "no clock"
            )
            turn = f"your turn, {when}"
        else:
            waiting = [str(s) for s in selectors.seats_with_players(game) if s.to_act]
            turn = f"waiting for {' and '.join(waiting) or 'the next deal'}"
        lines.append(f"Game {game.pk}, against {others}: {turn}. Reply to {links.reply_address(game.pk, seat.number)}")
    if not lines:
        lines.append("You have no game under way.")
    if finished:
        lines.append(f"Finished: {finished} (on the site: {links.absolute(reverse('games:my_games'))}).")
    return lines


def standing_plan(user, text):
    """Set (or with "clear" drop) `user`'s plan for every hand: (rules, what was done in words).
    Raises cribbage.PlanProblem for words that make no plan for every hand."""
    if not text.strip():
        raise cribbage.PlanProblem(
            "plan_empty", 'Say the rules, e.g. "plan always score first, low first", or "plan always clear".'
        )
    rules = cribbage.read_standing_plan(text)
    accounts.update_profile(user, standing_plan=rules)
    if not rules:
        return rules, "Your plan for every hand is dropped: each hand's play asks you, unless you plan that hand."
    words = cribbage.standing_plan_words(rules)
    return rules, (
        f"Your plan for every hand is now: {words}. It is set at every deal in all your games; "
        'a plan you give for one hand replaces it for that hand. "plan always clear" drops it.'
    )


def standing_plan_word(game, number, player, command, answer):
    """ "plan always ...", in reply to a game's email: the player's plan for every hand, and this
    hand's too when the player has not planned this hand."""
    try:
        rules, said = standing_plan(player, command.extra.get("text", ""))
    except cribbage.PlanProblem as problem:
        answer(game, number, player, "standing_plan", words=command.words, include_state=False, problem=problem.reason)
        return InboundEmail.Status.ANSWERED, f"standing plan refused: {problem.code}"
    game = Game.objects.get(pk=game.pk)
    view = selectors.view_for(game, number)
    if rules and not game.is_finished and view.phase in ("discard", "play") and not view.plan:
        try:
            game_services.submit_move(
                game, number, {"kind": "plan", "order": [], "rules": rules}, source=Event.Source.EMAIL, actor=player
            )
            said += " It plays this hand too."
        except game_services.MoveRefused:
            pass  # this hand's play is over for the seat: from the next deal on
    answer(game, number, player, "standing_plan", words=command.words, include_state=False, problem=said)
    return InboundEmail.Status.APPLIED, "standing plan set" if rules else "standing plan dropped"


def games_word(game, number, player, command, answer):
    """ "games": every game of mine."""
    answer(
        game, number, player, "games", words=command.words, include_state=False, problem="\n".join(games_lines(player))
    )
    return InboundEmail.Status.ANSWERED, "games listed"
