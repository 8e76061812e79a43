"""Settings read from the environment (see README "Configuration").

Without any variable set this is a local SQLite set-up that runs the command-line tools.
With DEBUG off the settings are secure by default: TLS is assumed to be terminated by a proxy
that sets X-Forwarded-Proto, and SSL redirect, HSTS and secure cookies are on.
"""
import os
import socket
import tempfile
from pathlib import Path

import environ
from kombu import Queue

from core.email_url import email_settings

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEV_SECRET_KEY = "django-insecure-development-only-key-do-not-deploy"

DEBUG = env.bool("DEBUG", default=False)
# The development key lets the command-line tools and tests run without configuration;
# the web entry points (wsgi/asgi) refuse it when DEBUG is off.
SECRET_KEY = env.str("SECRET_KEY", default=DEV_SECRET_KEY)
# Keys replaced by SECRET_KEY that still open what they signed or sealed (sessions, emails kept to send again).
SECRET_KEY_FALLBACKS = env.list("SECRET_KEY_FALLBACKS", default=[])
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_countries",
    "django_prometheus",
    "ninja",  # API v1's Swagger page from the package's own static files (no CDN): web/api/
    "axes",
    "audit",
    "championships",
    "scheduling",
    "results",
    "ranking",
    "calls",
    "ratings",
    "privacy",
    "notices",
    "attendance",
    "printing",
    "backup",
    "webhooks",
    "web.organize",
    "web.players",
    "web.referee",
    "web.public",
    "demo",
    "catan_tournaments",  # the deployment's own checks (checks.py)
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",  # first and last: the whole request is timed
    "core.request_id.RequestIdMiddleware",  # the proxy's X-Request-ID, on every log line and queued task
    "core.compression.CompressionMiddleware",  # text bodies gzip'd when asked; outermost, so it sees the final body
    "django.middleware.security.SecurityMiddleware",
    "core.security.SecurityHeadersMiddleware",  # CSP, Permissions-Policy, no-store on staff pages
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "core.language.FirstVisitLanguageMiddleware",  # an unprefixed address from outside: the visitor's language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "catan_tournaments.urls"
WSGI_APPLICATION = "catan_tournaments.wsgi.application"
ASGI_APPLICATION = "catan_tournaments.asgi.application"

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

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# Django's own backend, subclassed by django-prometheus to count the queries and their errors (/metrics).
DATABASES["default"]["ENGINE"] = DATABASES["default"]["ENGINE"].replace("django.db.backends.",
                                                                        "django_prometheus.db.backends.")
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A file, not memory, for the test database: the browser tests' server threads each open their own. One file
    # per test run (named by its process), so two runs at once never delete each other's; Django removes it at the
    # end of the run, tests/conftest.py those of runs that were killed.
    DATABASES["default"]["TEST"] = {"NAME": str(Path(tempfile.gettempdir()) / f"catan-test-{os.getpid()}.sqlite3")}
    # Without a worker, background work (a refresh, an email, a job) runs on this process's threads beside the
    # requests. A transaction that read and then writes cannot wait for another writer in SQLite ("database is
    # locked" at once): each one takes the write lock when it begins, and waits its turn for up to 20 s.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})
# Persistent connections: on PostgreSQL opening one costs more than a public page served from the cache. The
# health check replaces a connection the server dropped (restart, terminated backend) before a request uses it.
DATABASES["default"]["CONN_MAX_AGE"] = env.int(
    "CONN_MAX_AGE", default=0 if DATABASES["default"]["ENGINE"].endswith("sqlite3") else 60)  # seconds
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
# Redis must answer quickly or not at all: the cache is an optimisation (standings fall back to the
# database), so a stopped or frozen Redis costs a request at most a fraction of a second, not a hang.
REDIS_TIMEOUT = env.float("REDIS_TIMEOUT", default=0.5)  # seconds, to connect and for each reply
# After a failure the cache is skipped this many seconds, so a frozen Redis costs one call a timeout, not
# every call of every request (core/cache.py).
REDIS_RETRY_SECONDS = env.float("REDIS_RETRY_SECONDS", default=5)
# The cache may have a Redis of its own (docker-compose.yml: bounded, evicting the least recently used keys), apart
# from Celery's broker, whose queued jobs must never be evicted; without REDIS_CACHE_URL it shares REDIS_URL.
REDIS_CACHE_URL = env.str("REDIS_CACHE_URL", default=REDIS_URL)
if REDIS_CACHE_URL:
    CACHES = {"default": {
        "BACKEND": "core.cache.FailFastRedisCache",
        "LOCATION": REDIS_CACHE_URL,
        "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT,
                    "retry_seconds": REDIS_RETRY_SECONDS},
    }}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Standings are cached under a generation token that each change replaces, and also expire after this
# many seconds, so an invalidation lost while Redis was unreachable heals within the bound.
STANDINGS_CACHE_SECONDS = env.int("STANDINGS_CACHE_SECONDS", default=60)

# An audit entry's before/after that does not fit its action's shape (audit/payloads.py) raises in development and
# tests; on a live site it is logged and the entry recorded all the same, so no change goes unaudited.
AUDIT_STRICT_PAYLOADS = env.bool("AUDIT_STRICT_PAYLOADS", default=DEBUG)

# Celery: with no broker configured, tasks run eagerly in the calling process.
CELERY_BROKER_URL = REDIS_URL or "memory://"
# No result backend: every job keeps its state in its own row (core.jobs) and nothing reads a task's result, and a
# Redis result backend made enqueuing with Redis down fail with RuntimeError after retrying, not kombu's
# OperationalError, which core.background answers by running the work on its own threads.
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# A broker that is down makes enqueuing fail within seconds (kombu's OperationalError) instead of
# retrying for ever: connect and reply timeouts on the Redis sockets, and one retry when publishing.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5, "max_retries": 1}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2
CELERY_REDIS_SOCKET_TIMEOUT = 5
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True  # the worker itself keeps trying until the broker is back
CELERY_IMPORTS = ["catan_tournaments.tasks", "core.mail", "core.request_id"]
# Two queues: Celery's default, and "outbound" (core.background.OUTBOUND_QUEUE) for the requests to other people's
# servers (webhook deliveries, Web Push), which docker-compose.yml gives a worker of its own so slow receivers never
# hold the other work up; without a broker core.background gives it threads of its own, by the same routes. Both are
# declared, so a worker started without -Q (a developer's, the reliability stack's) serves both.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [Queue(name, routing_key=name) for name in ("celery", "outbound")]  # each its own key
CELERY_TASK_ROUTES = {name: {"queue": "outbound"} for name in (
    "webhooks.tasks.delivery_task", "results.tasks.send_seating_pushes")}
# Beat answers no remote control, so its health check reads a heartbeat file that each pass of its loop touches
# (catan_tournaments/beat.py); a pass comes at least this often (seconds), even with nothing due.
CELERY_BEAT_SCHEDULER = "catan_tournaments.beat:HeartbeatScheduler"
CELERY_BEAT_MAX_LOOP_INTERVAL = 60
CELERY_BEAT_SCHEDULE = {
    "clear-expired-sessions": {"task": "catan_tournaments.tasks.clear_expired_sessions", "schedule": 24 * 3600},
    "forget-old-signin-failures": {"task": "catan_tournaments.tasks.forget_old_signin_failures",
                                   "schedule": 24 * 3600},
    # seed 001 §6: participants get the official start time one day before (notices/start_time.py)
    "send-start-time-notices": {"task": "notices.tasks.send_start_time_notices", "schedule": 15 * 60},
    # webhook retries whose process stopped before their timer (webhooks/delivery.py)
    "send-overdue-webhook-deliveries": {"task": "webhooks.tasks.send_overdue_deliveries", "schedule": 5 * 60},
    # personal data of players with no tournament for PRIVACY_RETENTION_YEARS, erased a month after notice
    "apply-privacy-retention": {"task": "privacy.tasks.apply_retention", "schedule": 24 * 3600},
}
# Years a player's personal data is kept after their last tournament (privacy/retention.py, docs/privacy.md).
PRIVACY_RETENTION_YEARS = env.int("PRIVACY_RETENTION_YEARS", default=3)

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Reverse proxies in front of the app, each appending to X-Forwarded-For: the client address is the entry
# this many places from the right (core/clients.py), for the sign-in throttle and every rate limit.
PROXY_COUNT = env.int("PROXY_COUNT", default=0)

# Staff sign-in throttling (django-axes records, core/signin.py decides): every fifth failure of a username from
# one address within a day pauses that pair (never the username everywhere), 1 minute at first, doubling each time
# up to 15 minutes; refused attempts are not counted; a browser that signed in before has its own allowance.
AXES_VERBOSE = False
AXES_HANDLER = "core.signin.PausingHandler"
AXES_LOCK_OUT_AT_FAILURE = False  # django-axes' own lockout: the pause is PausingHandler's
AXES_COOLOFF_TIME = 24  # hours django-axes keeps its attempt records
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # attempts refused during a pause are not recorded
AXES_ENABLE_ACCESS_FAILURE_LOG = True  # the failures PausingHandler counts; pruned daily (catan_tournaments/tasks.py)
AXES_CLIENT_IP_CALLABLE = "core.clients.client_address"
AXES_USERNAME_CALLABLE = "core.signin.attempted_username"  # at most the 255 characters axes stores
AXES_WHITELIST_CALLABLE = "core.signin.known_browser"
AXES_LOCKOUT_CALLABLE = "catan_tournaments.accounts.signin_paused"

# Password-reset requests (catan_tournaments/accounts.py) per client address and hour.
PASSWORD_RESETS_PER_ADDRESS = env.int("PASSWORD_RESETS_PER_ADDRESS", default=10)
# Emails to one address a visitor typed (core/emails.py): registrations, links sent again, password resets together.
EMAILS_PER_RECIPIENT_HOUR = env.int("EMAILS_PER_RECIPIENT_HOUR", default=5)
EMAILS_PER_RECIPIENT_DAY = env.int("EMAILS_PER_RECIPIENT_DAY", default=10)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "referee-home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# Each named in itself (the language menu shows these); Arabic, Hebrew and Persian right to left (Django's
# LANGUAGES_BIDI). pt-br and zh-hans are the catalogs locale/pt_BR and locale/zh_Hans. Dates and numbers follow
# each language's Django formats, country names django-countries' catalogs (docs/translations.md).
LANGUAGES = [
    ("en", "English"), ("ar", "العربية"), ("he", "עברית"), ("fa", "فارسی"),
    ("de", "Deutsch"), ("fr", "Français"), ("es", "Español"), ("it", "Italiano"), ("pt-br", "Português (Brasil)"),
    ("nl", "Nederlands"), ("pl", "Polski"), ("tr", "Türkçe"), ("el", "Ελληνικά"), ("ja", "日本語"),
    ("zh-hans", "简体中文"), ("ko", "한국어"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language staff signed in with, for their next visit from outside (core/language.py); Django's set_language too.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env.str("TIME_ZONE", default="Asia/Dubai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))  # collectstatic's target
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Each uploaded file is counted as it arrives and kept only up to core.uploads.MAX_UPLOAD_BYTES (2 MB).
FILE_UPLOAD_HANDLERS = [
    "core.uploads.CappedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

# Where emails go, read whole from one address (core/email_url.py: the SMTP server, its user, password, port, TLS and
# the timeout of one attempt, or a folder for filemail:///path). Every email goes out from the job queue
# (core/mail.py), which tries again later after a failed attempt.
_email = email_settings(env.str("EMAIL_URL", default="consolemail://" if DEBUG else "smtp://localhost:25"))
EMAIL_BACKEND = _email.backend
EMAIL_HOST = _email.host
EMAIL_PORT = _email.port
EMAIL_HOST_USER = _email.host_user
EMAIL_HOST_PASSWORD = _email.host_password
EMAIL_USE_TLS = _email.use_tls
EMAIL_USE_SSL = _email.use_ssl
EMAIL_TIMEOUT = _email.timeout
EMAIL_SSL_CERTFILE = _email.ssl_certfile
EMAIL_SSL_KEYFILE = _email.ssl_keyfile
if _email.file_path is not None:
    EMAIL_FILE_PATH = _email.file_path
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="tournaments@localhost")
# The site's address, as players and staff open it: every absolute link the site builds starts with it (emails,
# calendar files, push messages, QR codes, the API's links, webhook payloads; core/site.py). Required with DEBUG off:
# the web and worker processes refuse to start without it (catan_tournaments/production.py).
SITE_URL = env.str("SITE_URL", default="http://localhost:8000" if DEBUG else "")
# Webhooks (core/outbound.py) post only to https addresses that resolve to public IP addresses; this permits plain
# http and loopback or private addresses, for tests and a developer's own receiver; OUTBOUND_LOCAL_HOSTS permits
# them only for the hosts listed (host or host:port, comma-separated: a stack's own push receiver on loopback).
# Never on a public site: `check --deploy` refuses either with DEBUG off (catan_tournaments/checks.py).
OUTBOUND_LOCAL_ALLOWED = env.bool("OUTBOUND_LOCAL_ALLOWED", default=False)
OUTBOUND_LOCAL_HOSTS = env.list("OUTBOUND_LOCAL_HOSTS", default=[])

# Players' own pages (web/players): a private link sent again from /me/ at most this often per hour per client
# address; registrations on a tournament's page at most this often per hour per address.
PLAYER_LINKS_PER_ADDRESS = env.int("PLAYER_LINKS_PER_ADDRESS", default=10)
REGISTRATIONS_PER_ADDRESS = env.int("REGISTRATIONS_PER_ADDRESS", default=20)

# Web Push to players' phones when their table is published (core/webpush.py): on only with both VAPID keys
# (`manage.py make_vapid_keys` makes a pair); the contact is the address push services write to about the site.
WEBPUSH_VAPID_PUBLIC_KEY = env.str("WEBPUSH_VAPID_PUBLIC_KEY", default="")
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_CONTACT = env.str("WEBPUSH_CONTACT", default=f"mailto:{DEFAULT_FROM_EMAIL}")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = not DEBUG
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^livez$", r"^metrics$"]  # probed over plain HTTP inside the deployment
SECURE_HSTS_SECONDS = 0 if DEBUG else env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
# Preloading is a commitment for the whole domain and its subdomains: only on request.
SECURE_HSTS_PRELOAD = not DEBUG and env.bool("HSTS_PRELOAD", default=False)
# Not preloading is the deliberate default, so `check --deploy` need not warn about it.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SESSION_COOKIE_SECURE = not DEBUG
LANGUAGE_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Sent by core.security.SecurityHeadersMiddleware. The templates have no inline script or style
# (htmx's indicator style is switched off in base.html), so everything comes from this origin.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
    "payment=(), usb=()"
)
# Staff pages and the players' own pages (/me/…): Cache-Control: no-store.
NO_STORE_PATH_PREFIXES = ["/referee/", "/organize/", "/accounts/", "/admin/", "/me/"]

# Error reports: with SENTRY_DSN set, unhandled errors of the web app and the Celery tasks, and ERROR log lines, go
# to Sentry (sentry-sdk switches its Django and Celery integrations on by itself; SENTRY_ENVIRONMENT and
# SENTRY_RELEASE are read by it too). Players' personal data stays here: no user, address or cookie, no request
# body and no local variables in the reports.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    import sentry_sdk

    from core.logging import scrub_event

    sentry_sdk.init(dsn=SENTRY_DSN, send_default_pii=False, max_request_body_size="never",
                    include_local_variables=False, before_send=scrub_event)

# Which replica answered (/healthz, /livez): a container's host name is its id; `make stack` names them web-1, web-2.
INSTANCE_NAME = env.str("INSTANCE_NAME", default=socket.gethostname())
# /metrics answers a scraper that sends `Authorization: Bearer <METRICS_TOKEN>` only; unset, it does not exist.
# With several processes (gunicorn's workers, Celery's) give them all PROMETHEUS_MULTIPROC_DIR, one folder per host,
# emptied before they start: prometheus_client keeps each process's figures there and /metrics adds them up.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
PROMETHEUS_EXPORT_MIGRATIONS = False  # django-prometheus would read the migrations table as each process starts

# Every log record, whatever its logger (django.request, django.security.csrf, gunicorn's, Celery's…), has the players'
# private tokens and check-in codes written as "…" before any handler sees it (core/logging.py).
# LOG_FORMAT=json: one JSON object per line; every line names the request it belongs to (the proxy's X-Request-ID,
# carried into the Celery tasks the request queued: core/request_id.py).
LOGGING_CONFIG = "core.logging.configure"
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"forbidden_without_traceback": {"()": "core.logging.ForbiddenWithoutTraceback"},
                "request_id": {"()": "core.request_id.RequestIdFilter"}},
    "formatters": {"json": {"()": "core.request_id.JsonFormatter"},
                   "text": {"format": "%(levelname)s %(name)s [%(request_id)s] %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["request_id"],
                             "formatter": "json" if LOG_FORMAT == "json" else "text"}},
    "loggers": {
        "django.request": {"filters": ["forbidden_without_traceback"]},
        # WeasyPrint narrates every layout step at INFO; only its warnings (a missing font or image) matter.
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
