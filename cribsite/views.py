from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache


def home(request):
    return render(request, "home.html")


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
    from cribsite.celery import app

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
    return JsonResponse({"status": "ok" if healthy else "error", **checks},
                        status=200 if healthy else 503)
