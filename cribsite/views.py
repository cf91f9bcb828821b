from pathlib import Path

from django.conf import settings
from django.db import connection
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache

from cribsite import mailbox
from cribsite.celery import app
from games.cribbage import SHORT_GAME, rules_for


def home(request):
    return render(request, "home.html", {"standard": rules_for("two"), "short_game": SHORT_GAME})


def favicon(request):
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's)."""
    return redirect(static("favicon.svg"), permanent=True)


def _database_status():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as exc:  # any failure means "unreachable" to a probe
        return f"error: {exc.__class__.__name__}"


def _broker_status():
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "ok (eager: no broker configured)"
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return "ok"
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"


@never_cache
def healthz(request):
    checks = {"database": _database_status(), "broker": _broker_status()}
    healthy = all(value.startswith("ok") for value in checks.values())
    return JsonResponse({"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503)


LOOPBACK = {"127.0.0.1", "::1"}


def dev_mail(request):
    """DEBUG only, to this machine only: the mail the site would have sent, newest first.

    With no mail provider configured, outgoing mail is written to files (EMAIL_FILE_PATH);
    this page lets someone trying the project read it and click its links. It shows login
    and move links, so a request through a proxy (X-Forwarded-For) is not from here.
    """
    if not settings.DEBUG or request.META.get("REMOTE_ADDR") not in LOOPBACK or "HTTP_X_FORWARDED_FOR" in request.META:
        raise Http404
    folder = Path(settings.EMAIL_FILE_PATH)
    # The links in the mail name SITE_URL; a trial may be served on another port or host.
    mails, styles = mailbox.read(folder, settings.SITE_URL, f"{request.scheme}://{request.get_host()}")
    return render(request, "dev_mail.html", {"mails": mails, "folder": folder, "mail_styles": styles})
