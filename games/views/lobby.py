"""My games and practice against the computer."""

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import InvalidPage, Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import challenges, computer_games, selectors
from games.forms import PracticeForm
from games.presenter.table import Table

# Rows a page of My games: the page costs the same however long a player's history.
GAMES_PER_PAGE = 25


@login_required
def my_games(request):
    """Your turn first, then the others' turn, practice games, then finished games with their results,
    a page at a time (the lists' lengths counted apart, in one query)."""
    counts = selectors.games_counted(request.user)
    paginator = Paginator(selectors.games_for(request.user), GAMES_PER_PAGE, allow_empty_first_page=True)
    paginator.count = sum(counts.values())  # known already: no COUNT of the joined list
    try:
        page = paginator.page(request.GET.get("page") or 1)
    except InvalidPage:
        raise Http404("There is no such page of your games.") from None
    your_turn, waiting, practice, finished = [], [], [], []
    for game in page.object_list:
        seat = selectors.seat_of(game, request.user)
        table = Table(selectors.view_for(game, seat.number))
        row = {
            "game": game,
            "table": table,
            "status": table.status(),
            "sides": table.sides(),
            "deadline": None if game.practice else seat.deadline,
            "won": table.i_won(),
        }
        if game.is_finished:
            finished.append(row)
        elif game.practice:
            practice.append(row)
        elif seat.to_act:
            your_turn.append(row)
        else:
            waiting.append(row)
    open_challenges = list(selectors.challenges_for(request.user))
    to_answer = [c for c in open_challenges if selectors.waiting_for(c, request.user)]
    sent = [c for c in open_challenges if c.challenger_id == request.user.pk]
    return render(
        request,
        "games/my_games.html",
        {
            "your_turn": your_turn,
            "waiting": waiting,
            "practice": practice,
            "finished": finished,
            "counts": counts,
            "page": page,
            "to_answer": to_answer,
            "sent": sent,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def practice(request):
    form = PracticeForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                if data.get("by_email") is None:
                    game = computer_games.start_practice(
                        request.user, data["level"], data["variant"], data["target"], data["muggins"]
                    )
                else:
                    game = computer_games.start_computer_game(
                        request.user,
                        data["level"],
                        delay=timedelta(seconds=data["by_email"]),
                        variant=data["variant"],
                        target=data["target"],
                        muggins=data["muggins"],
                    )
            except challenges.ChallengeError as error:
                form.add_error(None, error.message)
            else:
                return redirect(game)
        messages.error(request, "No game was started: please correct the fields marked below.")
    return render(request, "games/practice.html", {"form": form}, status=400 if form.is_bound else 200)
