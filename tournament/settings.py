"""One settings module, configured from the environment (12-factor).

Defaults just work for `make run` (SQLite file, DEBUG on, localhost). Production sets DEBUG=0,
SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL and then passes `manage.py check --deploy`.
"""

import ipaddress
import os
import zoneinfo
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}") from None


def env_time_zone(name: str, default: str) -> str:
    """An IANA time zone name ("Asia/Tokyo", "Europe/Copenhagen"): the venue's clock for every time shown."""
    raw = (os.environ.get(name) or "").strip() or default
    try:
        zoneinfo.ZoneInfo(raw)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(f"{name} must be a time zone name such as Europe/Copenhagen, got {raw!r}") from None
    return raw


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"  # noqa: S105

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    # Before auth: its `createsuperuser` refuses a username that looks like another's.
    "tournament",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "tournament.infra.middleware.shared_cache_rules",  # outermost: the last word on every response
    "tournament.infra.middleware.request_limits",
    "tournament.infra.middleware.forwarded_headers",
    "tournament.infra.middleware.head_as_get",
    "tournament.infra.routers.ReadReplicaMiddleware",
    "tournament.infra.middleware.security_headers",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "tournament.text.i18n.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

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
                "tournament.text.game_words.context",
            ],
        },
    },
]


def database(url: str) -> dict:
    db = dj_database_url.parse(url, conn_max_age=env_int("CONN_MAX_AGE", 60), conn_health_checks=True)
    if db["ENGINE"] == "django.db.backends.postgresql":
        # Django's, with a health check that asks the server only when it has said something (see the module).
        db["ENGINE"] = "tournament.infra.fast.postgresql"
    return db


DATABASES = {"default": database(os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# A PostgreSQL read replica of it: the public pages read there, everything else (and whoever wrote in the last
# READ_OWN_WRITES_SECONDS, or is signed in) reads the primary (tournament/infra/routers.py, docs/deployment.md).
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = database(DATABASE_REPLICA_URL)
    if DATABASES["replica"]["ENGINE"] != "tournament.infra.fast.postgresql":
        raise ImproperlyConfigured("DATABASE_REPLICA_URL must be a PostgreSQL address (postgres://...)")
    # Tests run on the primary's test database: the replica alias reads the same one.
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
DATABASE_ROUTERS = ["tournament.infra.routers.ReplicaRouter"]
READ_OWN_WRITES_SECONDS = env_int("READ_OWN_WRITES_SECONDS", 15)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # `make run` serves several requests at once on one SQLite file. Every transaction takes the write lock
    # when it begins (a read that later wants to write would otherwise fail at once with "database is
    # locked"), a writer waits up to 20 s for another, and WAL lets pages read while a result is stored.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

# Local memory by default; several app servers behind one proxy share Redis (REDIS_URL), through a backend
# that keeps every page answering while Redis is down (tournament/infra/cache.py).
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "tournament.infra.cache.FailSafeRedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 2000}}}

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "event_list"
LOGOUT_REDIRECT_URL = "login"

# Failed logins are throttled per account and address (django-axes).
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The person's address, not the proxy's: X-Forwarded-For read PROXY_COUNT entries from the right.
AXES_CLIENT_IP_CALLABLE = "tournament.infra.middleware.client_ip"

# Three complete languages (docs/languages.md). The choice: the visitor's cookie, then Accept-Language naming one of
# these, then the event's own language on public pages (tournament/text/i18n.py). Catalogs: `make messages`.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語"), ("da", "Dansk")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["tournament.text.formats"]
LANGUAGE_COOKIE_NAME = "swiss_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
# The times pages show (logs, history, the clock's "ends at"): the venue's. An event may name its own
# (settings page, `time_zone` in the event file) when one server hosts events in several countries.
TIME_ZONE = env_time_zone("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Files browsers ask for at the site's root (/favicon.ico), served by WhiteNoise like the rest.
WHITENOISE_ROOT = BASE_DIR / "static" / "root"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Request sizes. A player list is at most CSV_MAX_BYTES (50,000 players fit); its confirmation posts
# the file back as one form field. Anything larger is refused before it is read (tournament.infra.middleware).
CSV_MAX_BYTES = 2 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 3 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 3 * 1024 * 1024
MAX_REQUEST_BYTES = env_int("MAX_REQUEST_BYTES", 4 * 1024 * 1024)
# One event's roster: a bulk import past this is refused with a message.
MAX_PLAYERS_PER_EVENT = env_int("MAX_PLAYERS_PER_EVENT", 50_000)
# An event's sections, and its results (matches, its sections' together): an event file past either is refused
# whole (tournament/snapshot.check_file), as one past MAX_PLAYERS_PER_EVENT players (its sections' together).
MAX_SECTIONS_PER_EVENT = env_int("MAX_SECTIONS_PER_EVENT", 100)
MAX_RESULTS_PER_EVENT = env_int("MAX_RESULTS_PER_EVENT", 400_000)
# Heavy work off the web request (tournament/jobs/workflow.py): a round with at least this many players to pair is paired
# by the worker (`manage.py db_worker`), the organiser's page following it; a smaller one is paired in the request
# as before, at once. Per pairing system, where the request would spend about 0.2-0.3 s on a quiet 2-core machine
# (bench/jobs.py, docs/benchmarks.md): under the load that made a 2-s Dutch round take 57 s, a few seconds.
PAIR_IN_BACKGROUND_FROM = {
    "dutch": env_int("PAIR_IN_BACKGROUND_DUTCH", 300),
    "optimal": env_int("PAIR_IN_BACKGROUND_OPTIMAL", 1000),
}
# The task queue (Django's task framework, the django-tasks backport). The default keeps the jobs in the database
# (django-tasks-db): they outlive a restart of the web server, and `manage.py db_worker` runs them.
# TASKS_BACKEND=django_tasks.backends.immediate.ImmediateBackend runs each job in the request that starts it
# (no worker; large rounds then hold the request as before).
TASKS = {"default": {"BACKEND": os.environ.get("TASKS_BACKEND") or "django_tasks_db.DatabaseBackend"}}
# A running job writes a heartbeat every few seconds; one silent for this long (its worker died), or still queued
# this long while no worker showed any life, is shown as stopped, with "Pair again".
JOB_STALE_SECONDS = env_int("JOB_STALE_SECONDS", 30)
# Imports, exports and prints as jobs (tournament/jobs/files.py), from where the request took about a second on a quiet
# 2-core machine (bench/jobs.py, bench/event_files.py): a roster of 15,000 rows (CSV or pasted), a TRF file or a new
# event's swiss-event file of 10,000 player-rounds (players x rounds; a section counting as a thousand), the event
# file's export of 50,000 player-rounds, the crosstable of 20,000, the cards of 300 players.
# Smaller ones stay in the request, as before.
JOBS_FROM = {
    "players": env_int("JOB_IMPORT_ROWS", 15_000),
    "trf": env_int("JOB_TRF_PLAYER_ROUNDS", 10_000),
    "event_file": env_int("JOB_EVENT_FILE_PLAYER_ROUNDS", 10_000),
    "export": env_int("JOB_EXPORT_PLAYER_ROUNDS", 50_000),
    "crosstable": env_int("JOB_CROSSTABLE_PLAYER_ROUNDS", 20_000),
    "cards": env_int("JOB_CARDS_PLAYERS", 300),
}
# What an export or a print job made is kept gzipped in its row for download: at most this size, for this long.
JOB_RESULT_MAX_BYTES = env_int("JOB_RESULT_MAX_BYTES", 20_000_000)
JOB_RESULT_HOURS = env_int("JOB_RESULT_HOURS", 24)

# The public address (scheme and host, e.g. https://swiss.example.org): QR codes and cached public pages
# use it whatever Host header a request carries. Unset, they follow the request (development).
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")
if SITE_URL and not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"SITE_URL must start with http:// or https://, got {SITE_URL!r}")

# A staff invitation is taken within this many days of being sent (or sent again), or not at all.
STAFF_INVITE_DAYS = env_int("STAFF_INVITE_DAYS", 14)

# Public searches (?q=) per address: phones filter in the page; the server's search is for the rest.
PUBLIC_SEARCHES = env_int("PUBLIC_SEARCHES", 10)
# Who may create events: "invited" (default: superusers, and accounts given the "Can add event" permission
# in the admin, which every organiser of an event before this setting was given) or "open" (any account).
EVENT_CREATION = os.environ.get("EVENT_CREATION", "invited")
if EVENT_CREATION not in ("invited", "open"):
    raise ImproperlyConfigured(f'EVENT_CREATION is "invited" or "open", not "{EVENT_CREATION}"')
# An account's heavy actions (pairing, re-pairing, creating or importing an event): this many at once, then
# one more every HEAVY_ACTION_SECONDS (services/budgets.py).
HEAVY_ACTIONS = env_int("HEAVY_ACTIONS", 30)
HEAVY_ACTION_SECONDS = env_int("HEAVY_ACTION_SECONDS", 4)
PUBLIC_SEARCH_SECONDS = 10
# A public page that takes long to render may lag its event by a few seconds while results pour in
# (tournament/pages/memo.py `may_lag`): at most FACTOR x its rendering time, at most MAX seconds;
# pages smaller than MIN_BYTES (every page of an event of a few hundred players) are always exact.
PUBLIC_LAG_FACTOR = env_int("PUBLIC_LAG_FACTOR", 50)
PUBLIC_LAG_MAX = env_int("PUBLIC_LAG_MAX", 10)
PUBLIC_LAG_MIN_BYTES = env_int("PUBLIC_LAG_MIN_BYTES", 100_000)
# Seconds a CDN or nginx may serve a public page without asking the app (Cache-Control: public, max-age), and as
# long again while it asks (stale-while-revalidate); 0: every poll asks (no-cache). Never for a signed-in visitor
# or one who wrote a moment ago (tournament/views/public_cache.py `cache_control`, docs/scaling.md).
PUBLIC_MAX_AGE = env_int("PUBLIC_MAX_AGE", 5)

# Every script and style is served by the app itself (static/), so nothing inline is allowed.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

# Production: secure cookies, HSTS and HTTPS redirect. SECURE_SSL_REDIRECT=0 and
# SECURE_PROXY_SSL_HEADER (via BEHIND_PROXY=1) for running behind a TLS-terminating proxy.
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind a proxy: X-Forwarded-Proto says whether the visitor used HTTPS and X-Forwarded-For who they are.
# Both are believed only from TRUSTED_PROXIES (addresses or networks); anyone else's are dropped.
# X-Forwarded-Host is not used at all unless USE_X_FORWARDED_HOST=1: the public address is SITE_URL.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", ["127.0.0.1", "::1"])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_proxy!r} is not an address or network") from None
PROXY_COUNT = env_int("PROXY_COUNT", 1 if BEHIND_PROXY else 0)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
USE_X_FORWARDED_HOST = env_bool("USE_X_FORWARDED_HOST", False)

# A player's personal link is written without its secret in every log line (tournament/infra/logs.py): Django's
# "Not Found: /e/…" for a revoked link, a server error, and runserver's request lines.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"secrets": {"()": "tournament.infra.logs.RedactSecrets"}},
    "formatters": {
        "django.server": {"()": "django.utils.log.ServerFormatter", "format": "[{server_time}] {message}", "style": "{"}
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["secrets"]},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server", "filters": ["secrets"]},
    },
    "loggers": {"django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
