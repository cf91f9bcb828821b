"""Settings for Cribbage by mail.

Everything that differs between a laptop and production is read from the
environment (see .env.example). With nothing set the project runs on embedded
defaults: SQLite, Celery tasks run eagerly in-process, and outgoing mail is
written to files under var/mail/ (readable at /dev/mail/ while DEBUG is on).
"""

import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name, default=None):
    value = os.environ.get(name)
    return default if value in (None, "") else value


def env_bool(name, default=False):
    value = env(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_duration(name, default):
    """A duration such as "3d", "72h", "90m" or "600" (seconds)."""
    value = env(name, default).strip().lower()
    match = re.fullmatch(r"(\d+)\s*([smhd]?)", value)
    if not match:
        raise ValueError(f"{name}={value!r}: give a whole number with s, m, h or d (e.g. 3d)")
    unit = {"": "seconds", "s": "seconds", "m": "minutes", "h": "hours", "d": "days"}[match[2]]
    return timedelta(**{unit: int(match[1])})


# DEBUG is on only when set (`make run` sets it); with it off, the system checks refuse
# to start without SECRET_KEY (accounts.checks) or without the inbound webhooks' secrets.
DEBUG = env_bool("DEBUG")
SECRET_KEY = env("SECRET_KEY", "insecure-dev-key-only-for-local-trials")

SITE_URL = env("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
ALLOWED_HOSTS = env("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [SITE_URL]

# --- HTTPS whenever DEBUG is off (each can be turned off by its variable) -------------
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the container's probe asks over plain http
SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "0" if DEBUG else str(365 * 86400)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
# Only asks to be preloaded: the domain is on the browsers' list once its owner submits it.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
if env_bool("BEHIND_TLS_PROXY"):  # a proxy ends TLS and says so in X-Forwarded-Proto
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# How many proxies in front each add the address they saw to X-Forwarded-For (accounts.ratelimit:
# the per-address limits); 1 behind the TLS proxy, 0 without one (the header is then ignored).
TRUSTED_PROXY_COUNT = int(env("TRUSTED_PROXY_COUNT", "1" if env_bool("BEHIND_TLS_PROXY") else "0"))

# Content-Security-Policy (django-csp): scripts and styles from our static files only; an
# inline <script> or <style> needs nonce="{{ CSP_NONCE }}", and style="" attributes are refused.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.forms",  # its widget templates, for the site's form renderer (cribsite/forms.py)
    "anymail",
    "csp",
    "axes",
    "accounts",
    "games",
    "mail",
    "clock",
    "ratings",
    "events",
    "ladders",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before every middleware that reads or writes the body, so compression happens last
    # (Django's ordering); Django's own BREACH mitigation pads each compressed body.
    "cribsite.compression.GZipMiddleware",  # Django's at zlib level 1
    "cribsite.middleware.ContentSecurityPolicy",  # django-csp's, writing none on a 304
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "cribsite.middleware.RefuseNonText",
    "django.middleware.csrf.CsrfViewMiddleware",
    "cribsite.auth.Authentication",  # Django's, the player read written out
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
    "accounts.middleware.PrivatePages",  # a player's pages: Cache-Control private, no-store
    "cribsite.middleware.DatabaseUnavailableMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a login refused by axes into its 429 page
]

ROOT_URLCONF = "cribsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.theme",  # {{ theme }}: light, dark or auto
                "cribsite.context_processors.nav",  # {{ nav_section }}: the header's current page
                "csp.context_processors.nonce",  # {{ CSP_NONCE }} for a <script> or <style> in a page
            ],
            # {% url %} as Django's, keeping the URLs it reversed (cribsite/url_tag.py).
            # {% kept %}: a part kept per process by the values it depends on (cribsite/kept_part.py).
            "builtins": ["cribsite.url_tag", "cribsite.kept_part"],
        },
    },
]

FORM_RENDERER = "cribsite.forms.SiteFormRenderer"

WSGI_APPLICATION = "cribsite.wsgi.application"

_DATABASE_URL = env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
# PostgreSQL connections are kept between requests and tasks (a new one costs a few ms of both
# sides' CPU), checked before reuse so a restarted server costs one failed ping, not an error.
# SQLite opens a file: nothing to keep.
DATABASES = {
    "default": dj_database_url.parse(
        _DATABASE_URL,
        conn_max_age=int(env("DB_CONN_MAX_AGE", "0" if _DATABASE_URL.startswith("sqlite") else "600")),
        conn_health_checks=True,
    )
}
# SQLite shared by the web and the clock processes of `make run`: a writer waits for the
# other (IMMEDIATE takes the write lock at BEGIN, so no deadlock on upgrade) instead of failing.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Failed logins are throttled by django-axes, per account and per client address apart:
# after AXES_FAILURE_LIMIT wrong passwords, password logins for that account (or from that
# address) wait AXES_COOLOFF_TIME; a login link by email still works, so a stranger's guesses
# cannot lock a player out. Attempts are kept in the database: every process counts them.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = int(env("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(env("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_FORM_FIELD = "username"  # the login form's field (the account is its email address)
AXES_USERNAME_CALLABLE = "accounts.ratelimit.account_name"
AXES_CLIENT_IP_CALLABLE = "accounts.ratelimit.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_VERBOSE = False
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:my_games"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
FORMAT_MODULE_PATH = "cribsite.formats"  # dates as the site writes them, "2 Dec 2026", in the admin too

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True  # serve straight from static/ without collectstatic
STATIC_ROOT.mkdir(parents=True, exist_ok=True)

# --- Mail -----------------------------------------------------------------
# Precedence: an explicit EMAIL_BACKEND; an ESP through anymail (ANYMAIL_ESP,
# e.g. "postmark", with its credentials as ANYMAIL_* variables); plain SMTP
# when EMAIL_HOST is set; otherwise files under var/mail/ for local trials.
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Cribbage by mail <cribbage@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
REPLY_DOMAIN = env("REPLY_DOMAIN", "reply.localhost")
# The service's own address: "new game", "games", "vacation 3", "enter EVENT", "help" (mail.service_replies).
MAIL_SERVICE_ADDRESS = env("MAIL_SERVICE_ADDRESS", "")  # play@REPLY_DOMAIN when unset
EMAIL_HOST = env("EMAIL_HOST")
EMAIL_PORT = int(env("EMAIL_PORT", "25"))
EMAIL_HOST_USER = env("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
EMAIL_TIMEOUT = 20
EMAIL_FILE_PATH = Path(env("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail")))
if env("EMAIL_BACKEND"):
    EMAIL_BACKEND = env("EMAIL_BACKEND")
elif env("ANYMAIL_ESP"):
    EMAIL_BACKEND = f"anymail.backends.{env('ANYMAIL_ESP')}.EmailBackend"
elif EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"

# Anymail finds ANYMAIL_<ESP>_<SETTING> settings; take every ANYMAIL_* variable.
ANYMAIL = {
    key.removeprefix("ANYMAIL_"): value
    for key, value in os.environ.items()
    if key.startswith("ANYMAIL_") and key != "ANYMAIL_ESP" and value
}
if env("ANYMAIL_WEBHOOK_SECRET"):
    ANYMAIL["WEBHOOK_SECRET"] = env("ANYMAIL_WEBHOOK_SECRET")
# The providers whose inbound webhooks are read (anymail's names, comma-separated): the
# sending ESP unless set; set it empty to read none (replies through receive_email only).
# With DEBUG off, each needs its webhook secret or the service does not start (mail.checks).
MAIL_INBOUND_PROVIDERS = [
    name.strip() for name in os.environ.get("MAIL_INBOUND_PROVIDERS", env("ANYMAIL_ESP", "")).split(",") if name.strip()
]
# A reply is taken as its sender's only with DMARC pass or an aligned SPF or DKIM pass
# (mail.authentication). Besides the providers' own verdicts, only Authentication-Results
# headers written by these servers (their authserv-id, the first word of the header) are
# read: the provider's MX, or the mail server that pipes mail to `receive_email` (which
# refuses to run without one when DEBUG is off). Comma-separated.
MAIL_TRUSTED_AUTHSERV_IDS = [
    name.strip().lower() for name in os.environ.get("MAIL_TRUSTED_AUTHSERV_IDS", "").split(",") if name.strip()
]
# A reply whose spam score (the provider's, or SpamAssassin's X-Spam-Score) reaches this is
# refused without an answer, as is one flagged X-Spam-Flag: YES or X-Spam-Status: Yes.
MAIL_SPAM_SCORE = float(env("MAIL_SPAM_SCORE", "5.0"))
# No relay: an address that is no member's gets at most this many emails a day from what players
# and organisers do (invitations, challenges, event notices), whoever sends them (accounts.strangers).
MAIL_TO_STRANGERS_PER_DAY = int(env("MAIL_TO_STRANGERS_PER_DAY", "3"))
# A player makes at most this many challenges to named players a day (rematches included).
CHALLENGES_PER_DAY = int(env("CHALLENGES_PER_DAY", "20"))

# --- Celery ---------------------------------------------------------------
# Without a broker, tasks run eagerly in the web process: nothing to start.
CELERY_BROKER_URL = env("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes the database connection before and after every task (it ignores
# CONN_MAX_AGE since Celery 5.5) unless this is set: then only every this many tasks. A new
# PostgreSQL connection cost the worker about 1.5 ms of CPU a task (and the server a backend);
# cribsite.celery closes a connection after a task as a request's end does, when it is older
# than CONN_MAX_AGE or broken, and CONN_HEALTH_CHECKS checks it before the next task uses it.
CELERY_DB_REUSE_MAX = int(env("CELERY_DB_REUSE_MAX", "1000"))
# A worker child is replaced after its task once it holds this much (KiB): rendering emails and
# reviews grows a child's memory for good, and a fresh child costs one fork.
CELERY_WORKER_MAX_MEMORY_PER_CHILD = int(env("CELERY_WORKER_MAX_MEMORY_PER_CHILD", str(200 * 1024)))
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", "cribbage")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"max_retries": 3, "interval_start": 0, "interval_step": 0.5}
if CELERY_BROKER_URL and CELERY_BROKER_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT = "cribsite.broker:Transport"  # kombu's, one client a pool
CELERY_BEAT_SCHEDULE = {}
CELERY_BEAT_SCHEDULE_FILENAME = env("CELERY_BEAT_SCHEDULE_FILENAME", str(BASE_DIR / "var" / "celerybeat-schedule"))
# The clock process of `make run` (Procfile: a worker with embedded beat) needs no server:
# kombu's filesystem transport keeps its queue in a folder; the worker is also its consumer.
if CELERY_BROKER_URL and CELERY_BROKER_URL.startswith("filesystem://"):
    _queue_folder = Path(env("CELERY_FILESYSTEM_DIR", str(BASE_DIR / "var" / "celery")))
    for _sub in ("queue", "control"):
        (_queue_folder / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_folder / "queue"),
        "data_folder_out": str(_queue_folder / "queue"),
        "control_folder": str(_queue_folder / "control"),
    }
    CELERY_RESULT_BACKEND = None  # no result store: nothing waits on a periodic task's result

# --- After-commit work (games.follow_ups): the one sweeper queues again whatever a lost task
# left (a finished game's listeners, the computer's turns, unsent emails, unread replies) ----
CELERY_BEAT_SCHEDULE["after-commit-sweep"] = {"task": "games.tasks.sweep", "schedule": 120.0}
# --- Play by email (mail) ----
# The largest request body read (a webhook's payload, a form): larger is refused with 400
# before anything is read. Room for a reply with a photo attached; `receive_email` takes the same.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(env("MAX_REQUEST_BYTES", str(10 * 1024 * 1024)))
# Replies are kept whole (raw RFC 822, for support and audits) this many days
# after they arrive, then deleted once read; the moves they made stay in the logs.
MAIL_KEEP_DAYS = int(env("MAIL_KEEP_DAYS", "30"))
# An email that keeps failing for a passing reason (the mail server or the ESP
# down, a 4xx) is tried again with growing waits (1 minute, doubling, at most
# 4 hours apart) until this long after it was due; then it gives up, staff see
# it in the admin and the player a banner asking them to check their address.
MAIL_GIVE_UP_AFTER = env_duration("MAIL_GIVE_UP_AFTER", "3d")
CELERY_BEAT_SCHEDULE["mail-forget-old"] = {"task": "mail.tasks.forget_old_mail", "schedule": 86400.0}

# --- Slow games (clock.tasks): timeouts, reminders, vacations, digests ----
# Each task is idempotent, bounded and safe to run twice at once.
CELERY_BEAT_SCHEDULE["clock-sweep-timeouts"] = {
    "task": "clock.tasks.sweep_timeouts",
    "schedule": float(env("CLOCK_SWEEP_SECONDS", "60")),
}
# The length of a day per move. Only for trials and demos (a game that times out in minutes);
# weekend and night pauses stay calendar time.
CLOCK_DAY_SECONDS = int(env("CLOCK_DAY_SECONDS", "86400"))
CELERY_BEAT_SCHEDULE["clock-send-reminders"] = {"task": "clock.tasks.send_reminders", "schedule": 120.0}
CELERY_BEAT_SCHEDULE["clock-end-vacations"] = {"task": "clock.tasks.end_vacations", "schedule": 300.0}
CELERY_BEAT_SCHEDULE["clock-send-digests"] = {"task": "clock.tasks.send_digests", "schedule": 300.0}

# --- Ladders: lapsed challenges become forfeits; idle entrants per the ladder's rule ----
CELERY_BEAT_SCHEDULE["ladder-sweep"] = {"task": "ladders.tasks.sweep", "schedule": 3600.0}
# --- Events: a repeating event opens the next like it when it starts (tournaments.repeats) ----
CELERY_BEAT_SCHEDULE["events-repeat"] = {"task": "tournaments.tasks.repeat_events", "schedule": 3600.0}

# A shared cache (rate limits must hold across processes): Redis when a URL is
# given (Django's backend, one client a pool: cribsite.cache), else each process keeps its own in memory.
if env("CACHE_URL"):
    CACHES = {"default": {"BACKEND": "cribsite.cache.RedisCache", "LOCATION": env("CACHE_URL")}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The game page's poll answers from the cache only when every process shares it (games.polls).
POLL_FROM_CACHE = env_bool("POLL_FROM_CACHE", bool(env("CACHE_URL")))
# A session is read from the shared cache (written to the database too, and read from it when
# the cache has lost it or is down: cribsite.sessions): no query for it a request. Not from a
# process's own memory: a session ended in one process (a logout) could live on in another's.
SESSION_ENGINE = "cribsite.sessions" if env("CACHE_URL") else "django.contrib.sessions.backends.db"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
}
