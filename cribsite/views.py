import email
import email.policy
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from cribsite.celery import app
from games.cribbage import SHORT_GAME, rules_for


def home(request):
    return render(request, "home.html", {"standard": rules_for("two"), "short_game": SHORT_GAME})


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
    files = sorted(folder.glob("*.log"), key=lambda f: f.stat().st_mtime, reverse=True) if folder.exists() else []
    messages = []
    for path in files[:20]:
        # The file backend writes messages one after another, separated by a line of dashes.
        for raw in reversed(path.read_text(errors="replace").split("\n" + "-" * 79 + "\n")):
            if raw.strip():
                messages.append(_readable(email.message_from_string(raw.strip(), policy=email.policy.default)))
    return render(request, "dev_mail.html", {"messages": messages[:50], "folder": folder})


def _readable(message):
    body = message.get_body(preferencelist=("plain",))
    return {
        "subject": message["Subject"],
        "to": message["To"],
        "date": message["Date"],
        "text": body.get_content() if body else "",
    }
