"""The ground everything stands on: settings, user model, health, deployment files."""

import json
from pathlib import Path

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.core.management import call_command

from cribsite.tasks import probe_database

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_user_logs_in_by_email_and_has_a_display_name(client):
    User = get_user_model()
    User.objects.create_user("Ann@Example.com", "s3cret-pass", display_name="Ann")
    assert User.USERNAME_FIELD == "email"
    response = client.post("/accounts/login/", {"username": "Ann@example.com", "password": "s3cret-pass"})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(User.objects.get().pk)
    assert User.objects.get().email == "ann@example.com"
    assert str(User.objects.get()) == "Ann"


@pytest.mark.django_db
def test_user_model_needs_an_email():
    with pytest.raises(ValueError, match="email"):
        get_user_model().objects.create_user("", "x", display_name="Nobody")


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"].startswith("ok")


@pytest.mark.django_db
def test_healthz_reports_an_unreachable_broker(client, settings):
    from cribsite.celery import app
    from tests.conftest import _drop_connection_pools

    saved = app.conf.broker_url, app.conf.task_always_eager
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.update(broker_url="redis://127.0.0.1:1/0", task_always_eager=False)
    _drop_connection_pools(app)
    try:
        response = client.get("/healthz")
    finally:
        app.conf.update(broker_url=saved[0], task_always_eager=saved[1])
        _drop_connection_pools(app)
    assert response.status_code == 503
    assert response.json()["broker"].startswith("error")


def _probe_clock(monkeypatch, counted):
    """The broker reached through `counted` (a list, a connection each); returns a clock to move."""
    from cribsite import views
    from cribsite.celery import app

    now = [1000.0]
    monkeypatch.setattr(views, "_broker_seen_ok", {})
    monkeypatch.setattr(views.time, "monotonic", lambda: now[0])
    opened = app.connection_for_write

    def connection_for_write(*args, **kwargs):
        counted.append(1)
        if counted[0] == "dead":
            raise ConnectionRefusedError
        return opened(*args, **kwargs)

    monkeypatch.setattr(app, "connection_for_write", connection_for_write)
    return now


def test_healthz_reaches_the_broker_once_in_its_window_and_a_dead_broker_is_reported(
    client, celery_on_redis, settings, monkeypatch
):
    from cribsite.views import BROKER_CHECK_SECONDS

    settings.CELERY_TASK_ALWAYS_EAGER = False
    counted: list = []
    now = _probe_clock(monkeypatch, counted)
    for _ in range(5):
        response = client.get("/healthz")
        assert response.status_code == 200 and response.json()["broker"] == "ok"
    assert len(counted) == 1  # one broker connection for five probes (it was five)
    now[0] += BROKER_CHECK_SECONDS
    assert client.get("/healthz").status_code == 200 and len(counted) == 2
    # The broker dies: the next probe after the window says so, and a failure is never remembered.
    counted[:] = ["dead"]
    now[0] += BROKER_CHECK_SECONDS
    for _ in range(2):
        response = client.get("/healthz")
        assert response.status_code == 503 and response.json()["broker"] == "error: ConnectionRefusedError"
    assert len(counted) == 3


def test_healthz_reports_an_unreachable_database_on_every_probe(client, monkeypatch):
    from django.db import OperationalError, connection

    def refused(*args, **kwargs):
        raise OperationalError("the database is down")

    monkeypatch.setattr(connection, "cursor", refused)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "error: OperationalError" and response.json()["status"] == "error"


@pytest.mark.django_db
def test_seed_demo_is_idempotent(capsys):
    call_command("seed_demo")
    call_command("seed_demo")
    User = get_user_model()
    assert User.objects.filter(email__in=["alice@example.com", "bob@example.com"]).count() == 2
    assert User.objects.get(email="alice@example.com").check_password("cribbage")
    assert "alice@example.com" in capsys.readouterr().out


def test_docker_compose_declares_the_deployment():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "web", "worker", "beat", "mailcatcher"} <= set(services)
    assert "gunicorn" in " ".join(services["web"]["command"])
    assert "worker" in services["worker"]["command"]
    assert "beat" in services["beat"]["command"]
    for name in ("web", "worker", "beat"):
        environment = services[name]["environment"]
        assert environment["DATABASE_URL"].startswith("postgres://")
        assert environment["CELERY_BROKER_URL"].startswith("redis://")


def test_the_web_containers_health_probe_passes_with_a_real_host_name(live_server, settings, monkeypatch):
    """The probe asks from inside the container, over http, by the site's host name."""
    probe = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]["healthcheck"]["test"]
    assert probe[:3] == ["CMD", "python", "-c"]
    settings.ALLOWED_HOSTS = ["cribbage.example.org"]
    monkeypatch.setenv("ALLOWED_HOSTS", "cribbage.example.org,www.example.org")
    exec(probe[3].replace("http://127.0.0.1:8000", live_server.url), {})  # raises on a 4xx or 5xx


def test_readme_quick_start_has_exactly_two_commands_run_first():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1]
    block = section.split("```", 2)[1]
    commands = [line for line in block.splitlines()[1:] if line.strip()]
    assert commands == ["make run", "make test"]
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_env_example_documents_every_setting_read_from_the_environment():
    documented = (ROOT / ".env.example").read_text()
    for name in (
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "SITE_URL",
        "REPLY_DOMAIN",
        "EMAIL_HOST",
        "ANYMAIL_WEBHOOK_SECRET",
        "SECRET_KEY",
        "DEBUG",
    ):
        assert name in documented


@pytest.mark.redis
def test_a_task_runs_on_a_real_worker_through_redis(celery_worker_on_redis):
    get_user_model().objects.create_user("w@example.com", "pw-123456", display_name="W")
    result = probe_database.delay()
    assert result.get(timeout=60) == {"users": 1}  # generous: CI machines can be busy
    assert json.dumps(result.result)  # came back through the Redis result backend


def test_with_nothing_set_the_project_runs_on_embedded_defaults():
    import os
    import subprocess
    import sys

    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "CELERY_BROKER_URL",
            "EMAIL_HOST",
            "EMAIL_BACKEND",
            "ANYMAIL_ESP",
            "SECRET_KEY",
            "DEBUG",
        }
    }
    clean["DJANGO_SETTINGS_MODULE"] = "cribsite.settings"
    code = (
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, "
        "s.EMAIL_BACKEND, s.DEBUG)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=clean, cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [
        "django.db.backends.sqlite3",
        "True",
        "django.core.mail.backends.filebased.EmailBackend",
        "False",
    ]  # DEBUG only when set


@pytest.mark.django_db
def test_the_home_page_leads_a_newcomer_in(client):
    from django.urls import reverse

    from tests.factories import make_user

    page = client.get("/").content.decode()
    assert reverse("accounts:signup") in page and reverse("games:calculator") in page
    client.force_login(make_user())
    page = client.get("/").content.decode()
    assert reverse("games:my_games") in page and reverse("games:practice") in page


def test_every_periodic_task_names_a_task_the_workers_know():
    """A misspelt beat entry would fail silently in production, once a day."""
    from django.conf import settings

    from cribsite.celery import app

    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "mail.tasks.forget_old_mail" in scheduled
    assert scheduled - set(app.tasks) == set()
