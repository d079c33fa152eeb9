"""Herald settings, read from environment variables.

Every value that differs between a laptop, CI and production comes from the
environment through the small typed helpers of ``website.env``, which stop start-up with
a message naming the variable when a value cannot be used. ``NAME_FILE``
may hold a path whose contents are used instead of ``NAME`` (for secrets
mounted as files).

Variables: ``DEBUG`` (default on), ``SECRET_KEY`` (required when DEBUG is
off), ``ALLOWED_HOSTS`` (comma-separated), ``DATABASE_URL`` (default: SQLite
in ``var/``), ``REDIS_URL`` (cache and Celery broker; unset: in-process
cache and eager Celery), ``EMAIL_URL`` (``console:``, ``smtp://user:pass@host:587``,
``smtp+ssl://...``, ``locmem:``; default console), ``EMAIL_TIMEOUT`` (seconds, default 10),
``DEFAULT_FROM_EMAIL``, ``HERALD_CONTACT_EMAIL`` (where account pages tell people to write, "Name <a@b>" read
as a@b; default: the sender's address), ``SITE_URL``, ``DATABASE_REPLICA_URL`` (a read replica for profiles, ladders
and finished games; unset: everything reads the primary). The production and operations variables
(HTTPS, HSTS, cookies, rate limits, database pooling, logs) are read, and explained, in the
"Production" block below; docs/scaling.md shows them in use.
"""

from __future__ import annotations

import sys
from email.utils import parseaddr
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from kombu import Queue

from website.env import email_config, envbool, envint, envlist, envstr, redis_other_db, redis_with_db, site_key
from website.logconfig import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = envbool("DEBUG", True)

SECRET_KEY = envstr("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off (or point SECRET_KEY_FILE at it)")
    # Only for development: sessions signed with this key are worthless elsewhere.
    SECRET_KEY = "django-insecure-herald-development-key-do-not-use-in-production"
# Old keys, comma-separated, still accepted for signatures after a rotation: sessions, password
# reset links and the never-expiring unsubscribe links keep working (README, "Celery").
SECRET_KEY_FALLBACKS = envlist("SECRET_KEY_FALLBACKS", [])

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = envstr("SITE_URL", "http://127.0.0.1:8000")
# Herald's own English date formats (24-hour clock): website/formats/en/.
FORMAT_MODULE_PATH = ["website.formats"]

# The installed games, the one place that names them (games.kinds, docs/games.md).
HERALD_GAMES = ["games.dominion", "games.domaine"]
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "axes",
    "accounts",
    "games",
    *HERALD_GAMES,
    "correspondence",
    "ratings",
    "stats",
    "ops",
    "tournaments",
    "matchmaking",
    "guide",
    # django-ninja: its browsable docs (/api/v1/docs) then use its own static files, not a CDN (CSP, offline).
    "ninja",
    "api",
    # Last: its admin extends the games' and accounts' admin classes.
    "moderation",
]

MIDDLEWARE = [
    # First, so the one log line per request times everything below it.
    "ops.middleware.request_log",
    # Runs what a view deferred (a move's emails and bot turn) once its response is sent.
    "ops.after_response.middleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Cache-Control: private, no-store for signed-in requests (below WhiteNoise: static files stay public).
    "ops.middleware.private_cache",
    "accounts.middleware.user_time_zone",
    "accounts.middleware.user_language",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Signs banned users out and shows moderators' notices once (after messages).
    "moderation.middleware.moderation_state",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # After authentication: moves are limited per user, sign-in and sign-up per address.
    "ops.middleware.RateLimitMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "website.urls"
WSGI_APPLICATION = "website.wsgi.application"
ASGI_APPLICATION = "website.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

SERVED_OVER_ASGI = envbool("HERALD_ASGI", False)  # website/asgi.py: no persistent connections (docs/architecture.md)
DATABASES = {
    "default": dj_database_url.parse(
        envstr("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'herald.sqlite3'}",
        conn_max_age=envint("CONN_MAX_AGE", 0 if DEBUG or SERVED_OVER_ASGI else 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(exist_ok=True)
    # IMMEDIATE makes every atomic block take SQLite's write lock up front, so
    # two move submissions queue instead of failing with "database is locked"
    # half-way (SQLite has no row locks for select_for_update to take).
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

#: True under pytest or ``manage.py test``: Celery runs tasks eagerly (the
#: tests under tests/tasks start a real worker themselves) and requests never
#: run the sweep, so page tests count only the page's own queries.
TESTING = "pytest" in sys.modules or sys.argv[1:2] == ["test"]

# A streaming replica for read-heavy pages that can take a little lag
# (profiles, ladders): website.db.ReplicaRouter. Not under tests: there is
# no replication there (tests/ops/test_replica.py checks the routing).
if (_replica_url := envstr("DATABASE_REPLICA_URL")) and not TESTING:
    DATABASES["replica"] = dj_database_url.parse(
        _replica_url,
        conn_max_age=DATABASES["default"]["CONN_MAX_AGE"],
        conn_health_checks=True,
    )
DATABASE_ROUTERS = ["website.db.ReplicaRouter"]

#: Seconds a "your move" email waits before it is sent, so that a player who
#: has the game open (its page polls every few seconds and marks the seat
#: seen) gets no email for a move they are watching. Below the outbox sweep's
#: one-minute grace. 0 under tests, which count emails as they happen.
HERALD_YOUR_MOVE_EMAIL_DELAY = envint("HERALD_YOUR_MOVE_EMAIL_DELAY", 0 if TESTING else 30)
#: Seconds a player counts as having a game open after its page (or a push connection) last said so
#: (games.presence): the page polls every 5 s. A "your move" email waits while its player is present.
HERALD_PRESENCE_TTL = envint("HERALD_PRESENCE_TTL", 20)
# Seconds a move that needs no thought (End turn after the last Buy) waits after a person's move, so a
# misclicked Buy can be taken back (games.grace); 0 makes it at once (the tests' default).
HERALD_FORCED_MOVE_GRACE = envint("HERALD_FORCED_MOVE_GRACE", 0 if TESTING else 30)

REDIS_URL = envstr("REDIS_URL")
# Two sites on one Redis server (two checkouts' `make run`, staging beside production) never read each
# other's cache or run each other's tasks: their keys start with the site's own name (website.env.site_key).
HERALD_SITE_KEY = envstr("HERALD_SITE_KEY") or site_key(DATABASES["default"])
if REDIS_URL and TESTING:
    # Tests flush the cache: they get databases of their own on the same server (the cache in
    # HERALD_TEST_REDIS_DB, the broker in the next one), so `make test` beside `make run`
    # never touches the site's data in the databases REDIS_URL names.
    REDIS_URL = redis_with_db(REDIS_URL, envint("HERALD_TEST_REDIS_DB", 12))
if REDIS_URL:
    CACHES = {
        "default": {
            # Answers as an empty cache while Redis is away (logged), so pages, sign-in and
            # moves keep working: see website/cache.py and docs/scaling.md, "When a part fails".
            "BACKEND": "website.cache.FailSoftRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": HERALD_SITE_KEY,
            # Seconds: a Redis host that stops answering costs a page at most this, once per
            # outage window (website.cache.RETRY_AFTER), not a hang per cache call.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        }
    }
    # Its own database, so flushing the cache never drops queued tasks.
    CELERY_BROKER_URL = envstr("CELERY_BROKER_URL") or redis_other_db(REDIS_URL)
    CELERY_TASK_ALWAYS_EAGER = envbool("CELERY_TASK_ALWAYS_EAGER", TESTING)
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "herald"}}
    # With a host named: eager tasks still open a (memory) producer, and kombu warned "No hostname was supplied".
    CELERY_BROKER_URL = "memory://localhost/"
    # No broker: run tasks in-process so development needs no worker.
    CELERY_TASK_ALWAYS_EAGER = True
HERALD_LIVE_REDIS_URL = envstr("HERALD_LIVE_REDIS_URL") or (None if TESTING else REDIS_URL)
HERALD_LIVE_CHANNEL = envstr("HERALD_LIVE_CHANNEL") or f"herald:live:{HERALD_SITE_KEY}"
HERALD_LIVE_HEARTBEAT = envint("HERALD_LIVE_HEARTBEAT", 10)
CELERY_TASK_EAGER_PROPAGATES = True
# Every task is idempotent, so a task is acknowledged only once done: a worker
# that dies mid-task leaves it on the queue for another worker.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 50
CELERY_TASK_IGNORE_RESULT = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_TIMEZONE = "UTC"
# Redis may go away at any moment and come back (docs/scaling.md, "When a part fails"): workers and
# beat wait for it at start-up, and keep trying to reconnect for as long as it takes, instead of
# exiting after Celery's default of 100 attempts. (The web process never waits: see below.)
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A request that queues a task must not hang while Redis is away: give up
# quickly (the outbox row stays pending and the sweep sends it later).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "visibility_timeout": 3600,
    "global_keyprefix": f"{HERALD_SITE_KEY}:",
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
#: Seconds between two sweeps (beat), and how old an outbox row must be before the sweep sends it
#: (younger ones are left to the task queued after their commit): together, how soon the emails
#: owed while the broker or the workers were down go out once they are back.
HERALD_SWEEP_EVERY = envint("HERALD_SWEEP_EVERY", 60)
HERALD_OUTBOX_GRACE = envint("HERALD_OUTBOX_GRACE", 60)
CELERY_BEAT_SCHEDULE = {
    # Timeouts, 80% warnings, expired open games, and outbox rows left unsent.
    "sweep": {"task": "correspondence.tasks.sweep", "schedule": float(HERALD_SWEEP_EVERY)},
    # The your-move digest, once a day at 07:00 UTC.
    "digests": {"task": "correspondence.tasks.send_digests", "schedule": crontab(hour=7, minute=0)},
    # Banned players' seats in running games forfeit.
    "moderation-forfeits": {"task": "moderation.tasks.forfeit_banned_seats", "schedule": 60.0},
    # Tournaments: start those whose time came, and make the next round of any whose round is complete.
    "tournaments": {"task": "tournaments.tasks.tick", "schedule": 60.0},
    # Seeks: expire those past their time, lapse rematch offers, pair (tolerances widen with the wait).
    "matchmaking": {"task": "matchmaking.tasks.tick", "schedule": 60.0},
    # Statistics of finished games whose task was lost (broker down, worker killed).
    "stats-catch-up": {"task": "stats.tasks.catch_up", "schedule": 300.0},
    # The API's event stream keeps 14 days (api.stream.KEEP_DAYS).
    "api-prune-stream": {"task": "api.tasks.prune_stream", "schedule": crontab(hour=3, minute=30)},
}
#: Without a broker there is no beat: run the sweep from lobby and game page
#: requests instead (at most every 30 s), so a bare machine still times out games.
HERALD_SWEEP_ON_REQUEST = envbool("HERALD_SWEEP_ON_REQUEST", CELERY_TASK_ALWAYS_EAGER and not TESTING)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First, so a locked-out login is refused before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "games:lobby"

# django-allauth: sign in by username or email; email must be verified.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
# Refuses banned users' sign-in with a page that says so.
ACCOUNT_ADAPTER = "moderation.adapter.AccountAdapter"
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm", "signup": "accounts.forms.SignupForm"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
# Confirming the address in the browser that signed up signs the user in: no second sign-in.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
# One address per account; a new one replaces it only once verified (a typo never costs rated play).
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Herald] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"

# django-axes: after AXES_FAILURE_LIMIT failed sign-ins for one account from one
# IP address, that pair is refused for AXES_COOLOFF_TIME hours. The account,
# not the string typed: accounts.axes.attempt_username maps an email login to
# its account's username, so a lockout under "bob" holds under "bob@..." too.
# Per account and address, not per account alone: that would let anyone lock a player out from anywhere;
# spraying from many addresses meets the per-address sign-in rate limit (HERALD_RATE_LIMITS) instead.
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = 0.25
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "accounts.axes.attempt_username"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/lockout.html"
AXES_VERBOSE = False

for _key, _value in email_config(envstr("EMAIL_URL") or "console:").items():
    globals()[_key] = _value
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "Herald <herald@localhost>")
#: Seconds SMTP waits on each connect, read and write (then retried): a hung mail server must not hold a worker.
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", 10)
SERVER_EMAIL = DEFAULT_FROM_EMAIL
CONTACT_EMAIL = parseaddr(envstr("HERALD_CONTACT_EMAIL", "") or DEFAULT_FROM_EMAIL)[1] or "herald@localhost"

# Web Push (browser notifications beside the emails, correspondence/push.py). VAPID_PRIVATE_KEY: the
# site's signing key as PEM (or VAPID_PRIVATE_KEY_FILE; make one with `manage.py vapid_key`). Unset: with
# DEBUG a key is made once in var/vapid_private.pem; without DEBUG, Web Push is off. Only endpoints on the
# browsers' push services are accepted (PUSH_SERVICE_HOSTS, host suffixes, https only): a subscription
# names a URL the server then posts to, which must never be a machine of ours.
VAPID_PRIVATE_KEY = envstr("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = envstr("VAPID_SUBJECT", "") or "mailto:" + CONTACT_EMAIL
PUSH_SERVICE_HOSTS = envlist(
    "PUSH_SERVICE_HOSTS",
    ["fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com"],
)
PUSH_ALLOW_HTTP = False  # tests only: their fake push service listens on plain http on loopback
PUSH_TIMEOUT = envint("PUSH_TIMEOUT", 10)  # seconds per request to a push service

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("zh-hant", _("Traditional Chinese")),
    ("zh-hans", _("Simplified Chinese")),
]
# The site's catalogue first; then its corrections of allauth's Chinese wording (scripts/allauth_terms.py),
# which must win over allauth's own catalogue and so sit here, not in an app.
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "website" / "allauth_terms"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Production (ops): HTTPS only, HSTS, cookies, security headers. Each default follows DEBUG and can
# be overridden by its variable; `check --deploy` passes with DEBUG off and a real SECRET_KEY.
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # load balancers probe over plain HTTP
if envbool("SECURE_PROXY_SSL_HEADER", False):
    # Only behind a proxy that sets X-Forwarded-Proto itself (overwriting what clients send).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
# The header alone enrols nobody: submitting the domain to the preload list does.
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_HTTPONLY = True
# Sessions live in PostgreSQL and are read through the cache (Redis): every
# signed-in request reads its session, and a cache hit saves that query.
# Writes go to both, so flushing the cache signs nobody out.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_SAMESITE = "Lax"
# No script reads the CSRF cookie: pages send the token in a form field or in
# the X-CSRFToken header that base.html gives every htmx request.
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
# django-csp: only the site's own scripts and styles (htmx is served from
# static/, no inline script or style attribute), no framing, forms post here only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
    },
}

if envbool("DATABASE_POOL", SERVED_OVER_ASGI) and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # psycopg's connection pool in each process, instead of one persistent
    # connection per process (Django requires CONN_MAX_AGE 0 with a pool).
    for _alias in DATABASES:
        DATABASES[_alias]["CONN_MAX_AGE"] = 0
        DATABASES[_alias].setdefault("OPTIONS", {})["pool"] = {
            "min_size": envint("DATABASE_POOL_MIN", 1),
            "max_size": envint("DATABASE_POOL_MAX", 8 if SERVED_OVER_ASGI else 4),
            "timeout": 10,
        }

# Rate limits (ops.middleware.RateLimitMiddleware, django-ratelimit counters in
# the cache): URL name -> (key, rate), POSTs only. Chat has its own per-user
# limit in games.services; failed sign-ins are also limited by django-axes.
RATELIMIT_ENABLE = envbool("RATELIMIT_ENABLE", not TESTING)
# With the cache unreachable there is no counter: ops.middleware then decides per view
# (HERALD_RATE_LIMITS_FAIL_OPEN) and logs it; django-allauth's own limits let requests through.
#: Behind a proxy: the header holding the client address, e.g. HTTP_X_REAL_IP.
RATELIMIT_IP_META_KEY = envstr("RATELIMIT_IP_META_KEY") or None
HERALD_RATE_LIMITS = {
    "account_login": ("ip", envstr("RATE_LIMIT_LOGIN", "10/m")),
    "account_signup": ("ip", envstr("RATE_LIMIT_SIGNUP", "10/h")),
    "account_reset_password": ("ip", envstr("RATE_LIMIT_PASSWORD_RESET", "5/h")),
    "games:move": ("user_or_ip", envstr("RATE_LIMIT_MOVE", "60/m")),
}
#: The limited views that let requests through while the cache (their counter) is
#: unreachable: sign-in, still guarded per login and address by django-axes, whose
#: counts are in the database, and moves, which the game's lock and seq check keep
#: in order anyway. Sign-up and password reset, which each email an address a
#: stranger typed, refuse (429) until the counter is back.
HERALD_RATE_LIMITS_FAIL_OPEN = {"account_login", "games:move"}

#: The Celery heartbeat (ops.tasks.heartbeat): beat queues it every HERALD_HEARTBEAT_EVERY seconds
#: on a queue of its own (so a backlog of emails does not hold it up), and /health/ calls it stale
#: once the last stamp is older than HERALD_HEARTBEAT_MAX_AGE seconds: a dead worker or beat shows
#: there within a minute.
HERALD_HEARTBEAT_EVERY = envint("HERALD_HEARTBEAT_EVERY", 10)
HERALD_HEARTBEAT_MAX_AGE = envint("HERALD_HEARTBEAT_MAX_AGE", 45)
HERALD_HEALTH_BROKER_TIMEOUT = 2

#: Whether rated games may pair a bot account (``accounts.User.bot_account``, the API) with a person.
HERALD_RATE_BOT_ACCOUNTS = envbool("HERALD_RATE_BOT_ACCOUNTS", False)
#: The public API (``api``): requests per token's user, by kind (GET = read, else write), in
#: django-ratelimit's terms; bot accounts have limits of their own. Counted in the default cache.
HERALD_API_RATE_LIMITS = {
    "read": envstr("API_RATE_LIMIT_READ", "120/m"),
    "write": envstr("API_RATE_LIMIT_WRITE", "60/m"),
}
HERALD_API_BOT_RATE_LIMITS = {
    "read": envstr("API_BOT_RATE_LIMIT_READ", "600/m"),
    "write": envstr("API_BOT_RATE_LIMIT_WRITE", "240/m"),
}
#: The event stream's long poll waits at most this many seconds (below gunicorn's 30 s timeout). A waiting
#: poll holds a worker thread, so with sync workers (WEB_THREADS 1, gunicorn.conf.py) it does not wait at all
#: and tells clients to come back in HERALD_API_EVENTS_POLL_AFTER seconds (bench/api_longpoll.py, docs/api.md).
HERALD_API_EVENTS_MAX_WAIT = envint("HERALD_API_EVENTS_MAX_WAIT", 25 if envint("WEB_THREADS", 1) > 1 else 0)
HERALD_API_EVENTS_POLL_AFTER = envint("HERALD_API_EVENTS_POLL_AFTER", 5)

#: Chat: at most this many messages per user in CHAT_RATE_WINDOW seconds.
CHAT_RATE_LIMIT = envint("CHAT_RATE_LIMIT", 5)
CHAT_RATE_WINDOW = envint("CHAT_RATE_WINDOW", 10)

# Ratings (ratings.services): openskill Plackett-Luce, one ladder per game kind.
RATING_MU = 25.0
RATING_SIGMA = 25.0 / 3.0
RATING_BETA = 25.0 / 6.0
RATING_TAU = 25.0 / 300.0  # openskill's per-game dynamics
#: Inactivity: sigma**2 grows by RATING_IDLE_TAU**2 per day without a rated game.
RATING_IDLE_TAU = 0.15
#: Displayed rating: BASE + SCALE * (mu - Z*sigma), shifted so a newcomer shows BASE.
RATING_DISPLAY_BASE = 1500
RATING_DISPLAY_SCALE = 40
RATING_DISPLAY_Z = 2.0
#: Provisional (and off the leaderboard) below this many rated games.
RATING_PROVISIONAL_GAMES = 5
#: The leaderboard hides players with no rated game for this many days.
RATING_INACTIVE_DAYS = 90

#: "json" (one JSON object per line, the default with DEBUG off) or "text".
LOG_FORMAT = envstr("LOG_FORMAT") or ("text" if DEBUG else "json")
LOGGING = logging_config(LOG_FORMAT, envstr("LOG_LEVEL", "INFO"))
CELERY_BEAT_SCHEDULE["heartbeat"] = {"task": "ops.tasks.heartbeat", "schedule": float(HERALD_HEARTBEAT_EVERY)}
# Bots think on a queue of their own, taken by their own workers (-Q bots; the others -Q celery,heartbeat), so
# emails and clocks never wait behind a bot (docs/bots.md). A worker started without -Q takes every queue.
CELERY_TASK_QUEUES = (Queue("celery"), Queue("heartbeat"), Queue("bots"))
CELERY_TASK_ROUTES = {"ops.tasks.heartbeat": {"queue": "heartbeat"}, "games.tasks.bot_moves": {"queue": "bots"}}
#: CPU seconds a bot level's move may take before the level below moves instead (games.botbudget).
HERALD_BOT_CPU_BUDGET = float(envstr("HERALD_BOT_CPU_BUDGET") or 2.0)
#: The level of the bot that takes over a timed-out or resigned seat (games.bots.timeout_bot).
HERALD_TIMEOUT_BOT_LEVEL = envstr("HERALD_TIMEOUT_BOT_LEVEL") or "level3"
