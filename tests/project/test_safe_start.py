"""The service refuses to start unsafe: no implicit DEBUG, no public SECRET_KEY, no open webhook."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.checks import Tags, run_checks

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_VARIABLES = {
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "EMAIL_HOST",
    "EMAIL_BACKEND",
    "ANYMAIL_ESP",
    "SECRET_KEY",
    "DEBUG",
    "MAIL_INBOUND_PROVIDERS",
    "MAIL_TRUSTED_AUTHSERV_IDS",
    "CACHE_URL",
    "POLL_FROM_CACHE",
}
LONG_KEY = "k" * 20 + "-a-long-random-string-for-the-tests-0123456789"


def environment(**values):
    clean = {
        k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES and not k.startswith(("ANYMAIL_", "DJANGO_"))
    }
    return {**clean, "DJANGO_SETTINGS_MODULE": "cribsite.settings", "DATABASE_URL": "sqlite:///:memory:", **values}


def printed(code, **values):
    """What `code` prints in a fresh interpreter with the settings read from `values` alone."""
    return subprocess.run(
        [sys.executable, "-c", code], env=environment(**values), cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def manage(*args, **values):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        env=environment(**values),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def error_ids():
    return sorted(e.id for e in run_checks(tags=[Tags.security]) if e.is_serious())


def test_debug_is_off_unless_set():
    def run(**values):
        return printed("from django.conf import settings as s; print(s.DEBUG)", **values).strip()

    assert run() == "False"  # not even without SECRET_KEY
    assert run(SECRET_KEY=LONG_KEY) == "False"
    assert run(DEBUG="true") == "True"


def test_make_run_turns_debug_on_explicitly():
    recipe = (ROOT / "Makefile").read_text().split("\nrun:", 1)[1].split("\n\n", 1)[0]
    commands = [line.strip() for line in recipe.splitlines()[1:] if line.strip()]
    assert commands and all(line.startswith("DEBUG=true ") for line in commands)


@pytest.mark.parametrize(
    "values, refused",
    [
        ({}, "accounts.E001"),
        ({"SECRET_KEY": LONG_KEY, "ANYMAIL_ESP": "postmark"}, "mail.E002"),
        ({"SECRET_KEY": LONG_KEY, "MAIL_INBOUND_PROVIDERS": "mailgun", "ANYMAIL_WEBHOOK_SECRET": "u:p"}, "mail.E003"),
        ({"SECRET_KEY": LONG_KEY, "MAIL_INBOUND_PROVIDERS": "sendgird"}, "mail.E001"),
    ],
    ids=["no-secret-key", "webhook-without-secret", "mailgun-without-signing-key", "unknown-provider"],
)
@pytest.mark.parametrize("command", [["check"], ["check", "--deploy"], ["migrate", "--check"]])
def test_with_debug_off_an_unsafe_configuration_does_not_start(values, refused, command):
    result = manage(*command, **values)
    assert result.returncode != 0
    assert refused in result.stderr and "Traceback" not in result.stderr


def test_gunicorns_application_refuses_too():
    code = "import cribsite.wsgi"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=environment(ANYMAIL_ESP="postmark", SECRET_KEY=LONG_KEY),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0 and "mail.E002" in result.stderr
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=environment(ANYMAIL_ESP="postmark", SECRET_KEY=LONG_KEY, ANYMAIL_WEBHOOK_SECRET="u:p"),
    )
    assert result.returncode == 0, result.stderr


def test_every_configured_provider_needs_its_secret(settings):
    settings.DEBUG, settings.SECRET_KEY = False, LONG_KEY
    settings.MAIL_INBOUND_PROVIDERS = ["postmark", "mailgun", "amazon_ses", "brevo"]
    settings.ANYMAIL = {}
    assert error_ids() == ["mail.E002"] * 4 + ["mail.E003"] * 2
    settings.ANYMAIL = {"WEBHOOK_SECRET": "u:p", "MAILGUN_API_KEY": "key", "BREVO_API_KEY": "xkeysib"}
    assert error_ids() == []
    settings.MAIL_INBOUND_PROVIDERS, settings.ANYMAIL = [], {}
    assert error_ids() == []  # no webhook read: none needs a secret
    settings.DEBUG, settings.MAIL_INBOUND_PROVIDERS = True, ["postmark"]
    assert error_ids() == []  # a local trial


@pytest.mark.django_db
def test_the_outgoing_mail_page_answers_only_with_debug_on_and_only_to_this_machine(client, settings, tmp_path):
    settings.EMAIL_FILE_PATH = tmp_path
    settings.DEBUG = True
    assert client.get("/dev/mail/").status_code == 200
    assert client.get("/dev/mail/", REMOTE_ADDR="::1").status_code == 200
    assert client.get("/dev/mail/", REMOTE_ADDR="192.0.2.7").status_code == 404
    assert client.get("/dev/mail/", REMOTE_ADDR="10.0.0.2").status_code == 404
    assert client.get("/dev/mail/", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 404  # via a proxy here
    settings.DEBUG = False
    assert client.get("/dev/mail/").status_code == 404


def production_environment():
    """The variables .env.example sets, as a deployment copies it to .env."""
    values = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def test_check_deploy_is_clean_with_the_production_environment_and_its_own_secrets():
    values = production_environment()
    assert values["DEBUG"] == "false" and values["SITE_URL"].startswith("https://")
    values.pop("DATABASE_URL")  # check --deploy reaches no database; keep it off the network
    values.update(SECRET_KEY=LONG_KEY, ANYMAIL_WEBHOOK_SECRET="k2Jd8sQp:Xw3m9TqLr7Vz1Nb4")
    result = manage("check", "--deploy", "--fail-level", "WARNING", **values)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."
    assert "WARNINGS" not in result.stderr and result.stderr.strip() == ""


@pytest.mark.parametrize(
    "change, refused",
    [
        ({"ANYMAIL_WEBHOOK_SECRET": "k2Jd8sQp:Xw3m9TqLr7Vz1Nb4"}, "accounts.E002"),
        ({"SECRET_KEY": LONG_KEY}, "mail.E004"),
        ({}, "accounts.E002"),
        (
            {"SECRET_KEY": LONG_KEY, "ANYMAIL_WEBHOOK_SECRET": "k2Jd8sQp:Xw3m9TqLr7Vz1Nb4", "ALLOWED_HOSTS": "*"},
            "accounts.E003",
        ),
        (
            {
                "SECRET_KEY": LONG_KEY,
                "ANYMAIL_WEBHOOK_SECRET": "k2Jd8sQp:Xw3m9TqLr7Vz1Nb4",
                "MAIL_INBOUND_PROVIDERS": "brevo",
            },
            "mail.E003",
        ),
    ],
    ids=["example-secret-key", "example-webhook-secret", "both-examples", "any-host", "brevo-without-its-key"],
)
def test_check_deploy_fails_with_the_example_values_as_shipped(change, refused):
    values = production_environment()
    values.pop("DATABASE_URL")
    result = manage("check", "--deploy", **{**values, **change})
    assert result.returncode != 0 and refused in result.stderr


@pytest.mark.django_db
def test_with_debug_off_the_site_is_https_only_with_a_content_security_policy(settings):
    from django.test import Client

    from cribsite import settings as production

    assert not production.DEBUG
    for name in (
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
    ):
        setattr(settings, name, getattr(production, name))
    client = Client()
    response = client.get("/accounts/login/")
    assert response.status_code == 301 and response["Location"] == "https://testserver/accounts/login/"
    assert client.get("/healthz").status_code == 200  # the container's probe, over http
    response = client.get("/accounts/login/", secure=True)
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert response.cookies["csrftoken"]["secure"] is True


def test_postgresql_connections_are_kept_and_checked_and_a_worker_child_is_replaced_when_it_grows():
    code = (
        "from django.conf import settings as s; d = s.DATABASES['default'];"
        " print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'], s.CELERY_WORKER_MAX_MEMORY_PER_CHILD)"
    )

    def run(**values):
        return printed(code, **values).split()

    assert run(DATABASE_URL="postgres://cribbage@db:5432/cribbage") == ["600", "True", "204800"]
    assert run(DATABASE_URL="postgres://cribbage@db:5432/cribbage", DB_CONN_MAX_AGE="0")[0] == "0"
    assert run()[:2] == ["0", "True"]  # SQLite: a file, nothing to keep


def test_sessions_are_read_from_the_cache_only_when_every_process_shares_it():
    """With a shared cache (CACHE_URL: Redis) a request reads its session from it, not the
    database; with only each process's own memory, from the database: a session a logout
    ended in one process must not live on in another's memory."""
    code = "from django.conf import settings as s; print(s.SESSION_ENGINE, s.CACHES['default']['BACKEND'])"
    assert printed(code, CACHE_URL="redis://cache:6379/0").split() == [
        "cribsite.sessions",
        "cribsite.cache.RedisCache",
    ]
    assert printed(code).split() == [
        "django.contrib.sessions.backends.db",
        "django.core.cache.backends.locmem.LocMemCache",
    ]


def test_a_redis_broker_is_published_to_through_one_client_a_pool():
    """With a broker on Redis, Celery uses kombu's transport keeping its client (cribsite.broker);
    any other broker (the filesystem of `make run`) its own."""
    code = "from django.conf import settings as s; print(getattr(s, 'CELERY_BROKER_TRANSPORT', None))"
    assert printed(code, CELERY_BROKER_URL="redis://redis:6379/0").strip() == "cribsite.broker:Transport"
    assert printed(code, CELERY_BROKER_URL="filesystem://").strip() == "None"
