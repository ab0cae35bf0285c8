"""All settings, driven by the environment (one module, as in healthchecks).

Defaults give a zero-setup development instance: SQLite and Celery tasks run eagerly in-process.
Production sets HANCHAN_ENV=production, DATABASE_URL, CELERY_BROKER_URL, SECRET_KEY and
ALLOWED_HOSTS.
"""

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Production is declared, never guessed: HANCHAN_ENV=production (set by the Dockerfile and
# docker-compose.yml) makes the settings strict: SECRET_KEY and ALLOWED_HOSTS must be given and
# DEBUG must be off. Anything else is a development instance, so every README command line
# works from a fresh clone with nothing set in the environment (issue 14.8).
HANCHAN_ENV = os.environ.get("HANCHAN_ENV", "").strip().lower() or "development"
if HANCHAN_ENV not in {"production", "development"}:
    # A typo ("prod") must not quietly start a production server with the development key.
    raise ImproperlyConfigured(
        f"HANCHAN_ENV must be 'production' or 'development', not {HANCHAN_ENV!r}"
    )
PRODUCTION = HANCHAN_ENV == "production"

DEBUG = env_bool("DEBUG")
TESTING = env_bool("HANCHAN_TESTING")
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when HANCHAN_ENV=production")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when HANCHAN_ENV=production")
    # Development only: production refuses to start without its own key (above), and
    # `check --deploy` flags this one (security.W009) wherever it is used.
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "django_filters",
    "django_htmx",
    "axes",
    # The bottom layer first: what every app shares (issue 14).
    "core",
    "club",
    "tournaments",
    "scoring",
    # `manage.py seed_demo`: above club and tournaments, it uses both.
    "demo",
]

MIDDLEWARE = [
    # Content-Security-Policy on every response, refusals by later middleware included
    # (issue 16; the policy is below), and the HTTP -> HTTPS redirect that SecurityMiddleware
    # answers before any later middleware runs (issue 30.6): so first.
    "core.csp.CSPMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the body: an oversized request is refused unread (issue 16.8).
    "core.limits.RequestSizeLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Whose pages the offline worker may keep and show (issue 30.5).
    "core.offline_user.OfflineUserMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "core.roles.RoleMemoMiddleware",
    # Too many failed logins from one client address, across usernames (issue 16.4).
    "core.lockout.LoginThrottleMiddleware",
    # Last, as django-axes requires: locks out repeated failed logins.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "core.offline_user.context",
            ],
            # Where a game is played, as the apps owning it say (scoring's pages load it).
            "libraries": {"places": "config.places"},
        },
    },
]
# What scoring's game API asks of the places games are played at (scoring.api.places).
GAME_PLACES = "config.game_places.TablesAndNights"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the dev server read standings while a write commits; NORMAL sync is safe with WAL.
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The set-password link of a new staff member (tournaments.services.staff.set_password_path,
# shown in the console and e-mailed; issue 30.6) and a password reset are Django's reset token:
# it works once, and for this many seconds (Django's default is 3 days). A day covers handing
# it over before an event; past it the organiser removes the person and invites them again.
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(24 * 3600)))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login rate limit: 5 failures per username and address lock out for 15 minutes.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A page (and Retry-After) saying how long the lock lasts, not axes' bare text.
AXES_LOCKOUT_CALLABLE = "core.lockout.locked_out"
# Behind a load balancer every request comes from its address: name the proxies (addresses or
# networks, comma-separated) and the client's address is read from X-Forwarded-For, as the
# last of these proxies saw it; from anyone else the header is ignored (core.lockout.client_ip).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")
AXES_CLIENT_IP_CALLABLE = "core.lockout.client_ip"
# Besides the per-account lock (username + client address): a client address with this many
# failed logins, whatever the usernames, may not try again for the window (issue 16.4).
LOGIN_THROTTLE_PER_ADDRESS = int(os.environ.get("LOGIN_THROTTLE_PER_ADDRESS", "30"))
LOGIN_THROTTLE_WINDOW_SECONDS = 15 * 60
# API tokens expire this many days after they are issued (core.tokens).
API_TOKEN_TTL_DAYS = int(os.environ.get("API_TOKEN_TTL_DAYS", "30"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("nl", "Nederlands"),
    ("it", "Italiano"),
    ("es", "Español"),
    ("pl", "Polski"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not (DEBUG or TESTING)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Development and tests: WhiteNoise serves the app folders as they are, no collectstatic.
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = DEBUG or TESTING
MEDIA_ROOT = BASE_DIR / "media"
MEDIA_URL = "media/"
# Uploads (CSV imports, game records) are small; refuse anything large early (core/limits.py,
# docs/security.md). A request body over MAX_REQUEST_BODY_BYTES is refused unread (413); a file
# over MAX_UPLOAD_BYTES is counted while it streams in and dropped, never stored.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# The largest upload (an online game log, club.services.online); CSV and JSON uploads are
# refused over 2 MB by their size before they are read.
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_REQUEST_BODY_BYTES = 6 * 1024 * 1024
FILE_UPLOAD_HANDLERS = [
    "core.limits.LimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
# JSON bodies and uploads nest at most this deep (a game record needs 5 levels).
MAX_JSON_DEPTH = 20

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # Tokens that expire and can be revoked (core.tokens, issue 16.5).
        "core.tokens.ExpiringTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "core.limits.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # django-filter's backend, skipped when the query string is empty (core/api/filters.py).
    "DEFAULT_FILTER_BACKENDS": ["core.api.filters.QueryFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_METADATA_CLASS": "core.api.metadata.Metadata",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Hanchan API",
    "DESCRIPTION": "Riichi mahjong clubs and tournaments: players, seating, hands, standings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's files from the drf-spectacular-sidecar package, served as our static files.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # OpenAPI links from a created object to the operations on it (config/openapi.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.add_links",
    ],
}

# Celery: with no broker configured, tasks run in-process so the default start needs nothing.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
CELERY_TASK_EAGER_PROPAGATES = True
# Re-deliver a task whose worker died mid-run; tasks are idempotent.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Tasks write their results to the database; nothing waits on a result backend, so a Redis
# outage costs hand entry one quick failed publish instead of a long reconnect loop.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}
# A task whose worker died is redelivered after 10 minutes, not kombu's default hour.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600}
CELERY_BEAT_SCHEDULE = {
    "purge-idempotency-records": {"task": "core.purge_idempotency_records", "schedule": 3600.0},
    "rebuild-stale-standings": {
        "task": "tournaments.standings.rebuild_stale_standings",
        "schedule": 60.0,
    },
    # The same catch-up for the ratings (club.ratings.tasks.mark_ratings_stale).
    "rebuild-stale-ratings": {"task": "club.ratings.rebuild_stale_ratings", "schedule": 60.0},
    # Sign-up e-mail addresses past SIGNUP_EMAIL_RETENTION_DAYS (issue 35.5).
    "purge-sign-up-emails": {"task": "tournaments.purge_sign_up_emails", "schedule": 3600.0},
}

# E-mail (issue 35: sign-up confirmations): Django's mail system. Development prints mails on
# the console; production sends by SMTP from EMAIL_URL (smtp://user:password@host:587, or
# smtps:// for TLS on connect; ?tls=1 for STARTTLS) or the usual EMAIL_HOST, EMAIL_PORT,
# EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL.
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "hanchan@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
_email_url = os.environ.get("EMAIL_URL", "").strip()
if _email_url:
    from urllib.parse import parse_qs, unquote, urlsplit

    _mail = urlsplit(_email_url)
    _mail_query = parse_qs(_mail.query)
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = _mail.hostname or "localhost"
    EMAIL_USE_SSL = _mail.scheme == "smtps"
    EMAIL_USE_TLS = not EMAIL_USE_SSL and _mail_query.get("tls", ["0"])[0] in {"1", "true"}
    EMAIL_PORT = _mail.port or (465 if EMAIL_USE_SSL else 587 if EMAIL_USE_TLS else 25)
    EMAIL_HOST_USER = unquote(_mail.username or "")
    EMAIL_HOST_PASSWORD = unquote(_mail.password or "")
elif os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL")
else:
    EMAIL_BACKEND = os.environ.get(
        "EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
    )
EMAIL_TIMEOUT = 10
# The address links in e-mails start with (the private sign-up status link).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
# Sign-ups one client address may send per hour (never fewer than 10: a club signs up together).
SIGNUP_RATE_PER_HOUR = int(os.environ.get("SIGNUP_RATE_PER_HOUR", "30"))
# Privacy (issue 35.5, docs/privacy.md): sign-up e-mail addresses are removed this many days
# after a tournament's last day (the periodic task tournaments.purge_sign_up_emails); who runs
# the site and how to reach them, on the privacy page (/privacy/).
SIGNUP_EMAIL_RETENTION_DAYS = int(os.environ.get("SIGNUP_EMAIL_RETENTION_DAYS", "30"))
PRIVACY_CONTROLLER = os.environ.get("PRIVACY_CONTROLLER", "")
PRIVACY_CONTACT = os.environ.get("PRIVACY_CONTACT", "")

CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["CACHE_URL"],
            # A cache that does not answer fails fast: readers fall back to the database
            # (tournaments.standings.cache) instead of waiting on a dead Redis.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if os.environ.get("CACHE_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Production hardening: on whenever DEBUG is off.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = not DEBUG and not TESTING
CSRF_COOKIE_SECURE = not DEBUG and not TESTING
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG and not TESTING)
SECURE_HSTS_SECONDS = int(
    os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG or TESTING else "31536000")
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG and not TESTING
SECURE_HSTS_PRELOAD = not DEBUG and not TESTING
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp; issue 16, docs/security.md): everything from this site
# only, no inline script or style, no eval, no plugins, no framing. Pages keep their scripts in
# static/js and their styles in static/css; images may also be data: URLs (Swagger UI's icons).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Libraries' chatter stays out of what a command prints (issue 37): axes' "AXES: BEGIN version
# ..." banner at every start and Celery's task lines log at INFO, below these loggers' WARNING;
# with no broker (tasks in-process) kombu's "No hostname was supplied" warning is noise too.
# LOG_LIBRARIES=INFO, or a `manage.py` command run with -v 2 or -v 3 (manage.py), shows them.
LOG_LIBRARIES = os.environ.get("LOG_LIBRARIES", "")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        name: {"level": LOG_LIBRARIES or default}
        for name, default in (
            ("axes", "WARNING"),
            ("celery", "WARNING"),
            ("kombu", "WARNING" if CELERY_BROKER_URL else "ERROR"),
        )
    }
    | {
        # runserver's "Watching for file changes" went out twice: through Django's own
        # "django" handler (DEBUG) and again through the root's. Once, through the root's.
        "django.utils.autoreload": {"handlers": ["console"], "propagate": False},
    },
}
