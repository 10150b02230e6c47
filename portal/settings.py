"""Settings for Vakt, read from the environment in this one place.

Every value has a default that makes `make run` work on a fresh machine
(SQLite, no Redis), except the secret key: `make run` keeps a generated one in
the data directory, a deployment sets VAKT_SECRET_KEY. A bad value stops start-up with a message naming the
variable, so a misconfigured deployment never half-starts.
"""

import hashlib
import hmac
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from portal.secret_key import secret_key_ensure, secret_key_path, secret_key_read

BASE_DIR = Path(__file__).resolve().parent.parent


# --- small typed env helpers -------------------------------------------------


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), got {raw!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_url(name: str, default: str, *, schemes: tuple[str, ...]) -> str:
    raw = os.environ.get(name, default)
    if raw == "":
        return raw
    scheme = raw.split("://", 1)[0] if "://" in raw else ""
    if scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name} must be a URL starting with one of {', '.join(s + '://' for s in schemes)}; got {raw!r}"
        )
    return raw


# --- core ----------------------------------------------------------------------

DATA_DIR = Path(env_str("VAKT_DATA_DIR", str(BASE_DIR / "var")))
DEBUG = env_bool("VAKT_DEBUG", False)


def _secret_key() -> str:
    """VAKT_SECRET_KEY, else the key kept in the data directory (generated there in debug).

    Never a constant: outside debug a start without either fails (`make run` creates the file).
    """
    key = os.environ.get("VAKT_SECRET_KEY", "")
    if not key:
        key = secret_key_ensure(DATA_DIR) if DEBUG else secret_key_read(DATA_DIR)
        if key is None:
            raise ImproperlyConfigured(
                f"VAKT_SECRET_KEY must be set: there is no key file at {secret_key_path(DATA_DIR)} and "
                "VAKT_DEBUG is off (`make run` and VAKT_DEBUG=true generate that file)"
            )
    if len(key) < 32:
        raise ImproperlyConfigured("VAKT_SECRET_KEY must be at least 32 characters long")
    return key


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = env_list("VAKT_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("VAKT_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "template_partials",
    "ninja",
    # the service: one app per domain, labels prefixed service_
    "service.auth",
    "service.companies",
    "service.watchlists",
    "service.screening",
    "service.reports",
    "service.audit",
    "service.demo",  # development data: the generate_demo command
    # the dashboard: reaches the service only through portal.service
    "portal",
    "companies",
    "watchlists",
    "screening",
    "reports",
]

MIDDLEWARE = [
    "service.request_id.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "service.middleware.ApiBoundaryMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "portal.service_down.ServiceUnavailableMiddleware",
]

ROOT_URLCONF = "portal.urls"
WSGI_APPLICATION = "portal.wsgi.application"

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
                "portal.context_processors.member",
            ],
            # The dashboard's filters (Norwegian numbers, words for keys) on every template, error pages too.
            "builtins": ["portal.templatetags.vakt"],
        },
    },
]

# --- database --------------------------------------------------------------------

_default_sqlite = f"sqlite:///{DATA_DIR / 'vakt.sqlite3'}"
DATABASE_URL = env_url(
    "DATABASE_URL", _default_sqlite, schemes=("sqlite", "postgres", "postgresql", "pgsql")
)
try:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
except Exception as exc:  # dj_database_url raises plain ValueErrors
    raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {exc}") from None
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # SQLite: WAL and a busy timeout so the worker and the web server can share the file.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- cache, broker ---------------------------------------------------------------

REDIS_URL = env_url("REDIS_URL", "", schemes=("redis", "rediss", "unix"))
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    # Embedded default: files under the data directory, shared by the web server and the worker
    # (a per-process memory cache would keep the worker's refreshed screening state to itself);
    # portal/cache.py makes its `incr` keep the expiry and count right across processes.
    CACHES = {
        "default": {
            "BACKEND": "portal.cache.SharedFileCache",
            "LOCATION": str(DATA_DIR / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }

BROKER_DIR = DATA_DIR / "broker"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # A task taken by a worker that dies (acks_late: never acknowledged) goes back to the queue
    # after the visibility timeout; it must exceed the longest task, or a running task is handed
    # out a second time (the tasks are idempotent, so that costs time, not correctness).
    # Abandoned messages are looked for every `unacked_restore_interval` seconds.
    _visibility_timeout = env_int("VAKT_BROKER_VISIBILITY_TIMEOUT_SECONDS", 3600, minimum=5)
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {
        "visibility_timeout": _visibility_timeout,
        "unacked_restore_interval": max(1, min(60, _visibility_timeout // 4)),
        "unacked_restore_throttle": 1,
    }
else:
    # Embedded default: kombu's filesystem transport needs no server process. It ignores the
    # host, but without one kombu warns "No hostname was supplied" on every connection.
    CELERY_BROKER_URL = "filesystem://localhost/"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR),
        "data_folder_out": str(BROKER_DIR),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker started while Redis is away, or one that lost it, keeps trying instead of exiting.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Workers load the matching engine before they take work (service/screening/tasks.py); off
# only where workers must start in seconds and screen little (the fault tests).
VAKT_WORKER_WARM_UP = env_bool("VAKT_WORKER_WARM_UP", True)
CELERY_TASK_ALWAYS_EAGER = env_bool("VAKT_CELERY_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
# How often the worker refreshes each organisation's cached screening state for the dashboard.
VAKT_SCREENING_REFRESH_SECONDS = env_int("VAKT_SCREENING_REFRESH_SECONDS", 300, minimum=30)
# Work whose message a broker outage lost is enqueued again from the database after this long
# (report orders, re-screening chunks, monitorings' first screenings, list-version and config
# re-screens, batch jobs, the dashboard's report polls); longer than a busy queue's wait, so
# little runs twice.
VAKT_RESUME_AFTER_SECONDS = env_int("VAKT_RESUME_AFTER_SECONDS", 1800, minimum=5)
_resume_every = float(env_int("VAKT_RESUME_CHECK_SECONDS", 300, minimum=5))
CELERY_BEAT_SCHEDULE: dict = {
    "worker-heartbeat": {"task": "portal.tasks.worker_heartbeat", "schedule": 30.0},
    "report-orders-resume": {"task": "service.reports.tasks.partner_report_orders_resume", "schedule": _resume_every},
    "screening-chunks-resume": {"task": "service.screening.tasks.screening_run_chunks_resume", "schedule": _resume_every},
    "screening-monitorings-resume": {"task": "service.screening.tasks.screening_monitorings_resume", "schedule": _resume_every},
    "screening-list-versions-resume": {"task": "service.screening.tasks.screening_list_versions_resume", "schedule": _resume_every},
    "screening-config-rescreens-resume": {
        "task": "service.screening.tasks.screening_config_rescreens_resume", "schedule": _resume_every,
    },
    "screening-batches-resume": {"task": "service.screening.tasks.screening_batches_resume", "schedule": _resume_every},
    "customer-person-imports-resume": {
        "task": "service.screening.tasks.customer_person_import_jobs_resume", "schedule": _resume_every,
    },
    # Deletes batch screening files older than VAKT_BATCH_RETENTION_DAYS (service/screening/batch_services.py).
    "screening-batches-retention": {
        "task": "service.screening.batch_tasks.screening_batches_retention",
        "schedule": float(env_int("VAKT_BATCH_RETENTION_CHECK_SECONDS", 3600, minimum=60)),
    },
    # Deletes screening records past VAKT_SCREENING_RECORDS_RETENTION_YEARS (service/screening/records_retention.py).
    "screening-records-retention": {
        "task": "service.screening.tasks.screening_records_retention", "schedule": 24 * 3600.0,
    },
    "report-downloads-resume": {"task": "reports.tasks.report_downloads_resume", "schedule": _resume_every},
    "company-analysis-daily": {
        "task": "service.companies.tasks.analysis_refresh_all",
        "schedule": float(env_int("VAKT_ANALYSIS_REFRESH_SECONDS", 24 * 3600, minimum=60)),
    },
    # Makes up a lost watchlist sync (docs/production.md); a sync with nothing to do writes nothing.
    "screening-configs-resync": {
        "task": "service.screening.tasks.screening_configs_resync_all",
        "schedule": float(env_int("VAKT_SCREENING_RESYNC_SECONDS", 24 * 3600, minimum=60)),
    },
    # Closes what list-delta runs leave out by design (docs/screening.md); ~40 s for 100,000 persons.
    "screening-full-rescreen": {
        "task": "service.screening.tasks.screening_full_rescreen_scheduled",
        "schedule": float(env_int("VAKT_FULL_RESCREEN_SECONDS", 7 * 24 * 3600, minimum=3600)),
    },
    "screening-lists-refresh": {
        "task": "service.screening.tasks.screening_lists_refresh_all",
        "schedule": float(env_int("VAKT_LIST_REFRESH_SECONDS", 6 * 3600, minimum=60)),
    },
    # Hourly by default; each config gets at most one digest a day (service/screening/notifications.py).
    "screening-digests": {
        "task": "service.screening.notification_tasks.screening_digests_send_all",
        "schedule": float(env_int("VAKT_DIGEST_CHECK_SECONDS", 3600, minimum=60)),
    },
    # The dashboard's cached case counts and related-company states (screening/freshness.py).
    "dashboard-screening-state-refresh": {
        "task": "screening.tasks.screening_state_refresh_all",
        "schedule": float(VAKT_SCREENING_REFRESH_SECONDS),
    },
}

# --- web processes (gunicorn, portal/gunicorn_conf.py) -----------------------------------

VAKT_WEB_BIND = env_str("VAKT_WEB_BIND", "0.0.0.0:8000")
VAKT_WEB_WORKERS = env_int("VAKT_WEB_WORKERS", 3, minimum=1)
VAKT_WEB_THREADS = env_int("VAKT_WEB_THREADS", 4, minimum=1)
VAKT_WEB_TIMEOUT_SECONDS = env_int("VAKT_WEB_TIMEOUT_SECONDS", 60, minimum=5)
# The TLS proxy in front, whose X-Forwarded-* headers gunicorn believes.
VAKT_WEB_FORWARDED_ALLOW_IPS = env_str("VAKT_WEB_FORWARDED_ALLOW_IPS", "127.0.0.1")

# --- the service -------------------------------------------------------------------

# Public base URL of this deployment's APIs; token audiences are "<base>/analysis"
# and "<base>/datasets". Empty: taken from each request's host.
VAKT_BASE_URL = env_url("VAKT_BASE_URL", "", schemes=("http", "https")).rstrip("/")
VAKT_TOKEN_LIFETIME_SECONDS = env_int("VAKT_TOKEN_LIFETIME_SECONDS", 24 * 3600, minimum=60)
# Bearer tokens get a key of their own, derived from the secret key unless set.
VAKT_JWT_SECRET = env_str("VAKT_JWT_SECRET", "") or hmac.new(
    SECRET_KEY.encode(), b"vakt bearer token signing key", hashlib.sha256
).hexdigest()
if len(VAKT_JWT_SECRET) < 32:
    raise ImproperlyConfigured("VAKT_JWT_SECRET must be at least 32 characters long")
VAKT_AUTH_CACHE_SECONDS = env_int("VAKT_AUTH_CACHE_SECONDS", 10, minimum=0)  # 0: resolve credentials every time
VAKT_RATE_LIMIT_PER_MINUTE = env_int("VAKT_RATE_LIMIT_PER_MINUTE", 1200, minimum=0)  # 0: off
# Failed client authentications (token endpoint, basic auth) before 429, per client id and per address; 0: off.
VAKT_AUTH_FAILURES_PER_MINUTE = env_int("VAKT_AUTH_FAILURES_PER_MINUTE", 10, minimum=0)
VAKT_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE = env_int("VAKT_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE", 50, minimum=0)
VAKT_MAX_BODY_BYTES = env_int("VAKT_MAX_BODY_BYTES", 1_000_000, minimum=1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = VAKT_MAX_BODY_BYTES
# Batch screening files (service/screening/batch_services.py): rows per file at most; bytes: VAKT_MAX_BODY_BYTES.
VAKT_BATCH_MAX_ROWS = env_int("VAKT_BATCH_MAX_ROWS", 10_000, minimum=1)
# Customer person import jobs (service/screening/person_import_job.py): a file larger than the synchronous
# import takes, imported in the background in one transaction; its bytes and rows at most.
VAKT_IMPORT_JOB_MAX_BYTES = env_int("VAKT_IMPORT_JOB_MAX_BYTES", 20_000_000, minimum=1024)
VAKT_IMPORT_JOB_MAX_ROWS = env_int("VAKT_IMPORT_JOB_MAX_ROWS", 200_000, minimum=1)
# Days an uploaded file (or a name checked) and its result are kept: they name persons screened once,
# so they are not kept for ever (GDPR storage limitation); 0 keeps them until a member deletes them.
VAKT_BATCH_RETENTION_DAYS = env_int("VAKT_BATCH_RETENTION_DAYS", 30, minimum=0)
# Screening records of a person or company are deleted this many years after its last
# monitoring is removed: five, as the AML acts ask (0: kept for ever).
VAKT_SCREENING_RECORDS_RETENTION_YEARS = env_int("VAKT_SCREENING_RECORDS_RETENTION_YEARS", 5, minimum=0)
VAKT_FILE_SESSION_HOURS = env_int("VAKT_FILE_SESSION_HOURS", 24, minimum=1)
# Partner reports (service/reports): the producer class, and the partner the HTTP producer calls.
VAKT_REPORT_PRODUCER = env_str("VAKT_REPORT_PRODUCER", "service.reports.producers.pdf.PdfReportProducer")
VAKT_REPORT_PARTNER_URL = env_url("VAKT_REPORT_PARTNER_URL", "", schemes=("http", "https"))
VAKT_REPORT_PARTNER_TIMEOUT_SECONDS = env_int("VAKT_REPORT_PARTNER_TIMEOUT_SECONDS", 30, minimum=1)
VAKT_REPORT_PARTNER_RETRIES = env_int("VAKT_REPORT_PARTNER_RETRIES", 3, minimum=0)

# --- the dashboard ------------------------------------------------------------------

# Where the dashboard finds the API. Empty: this deployment, reached in-process
# through a WSGI transport (same HTTP semantics, no network hop, no deadlock).
VAKT_SERVICE_URL = env_url("VAKT_SERVICE_URL", "", schemes=("http", "https")).rstrip("/")
VAKT_SERVICE_TIMEOUT_SECONDS = env_int("VAKT_SERVICE_TIMEOUT_SECONDS", 20, minimum=1)
VAKT_LOGIN_ATTEMPTS = env_int("VAKT_LOGIN_ATTEMPTS", 5, minimum=1)
VAKT_LOGIN_LOCKOUT_SECONDS = env_int("VAKT_LOGIN_LOCKOUT_SECONDS", 300, minimum=1)
# How long the dashboard waits for an ordered report before it marks it failed.
VAKT_REPORT_WAIT_SECONDS = env_int("VAKT_REPORT_WAIT_SECONDS", 900, minimum=10)
# Bootstrap's alert classes for Django's message levels ("error" is "danger" there).
MESSAGE_TAGS = {40: "danger"}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# --- email ----------------------------------------------------------------------------

# The screening digest (service/screening/notifications.py). The embedded default prints
# mail on the console; set VAKT_EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend
# and the VAKT_EMAIL_* server settings to send it.
EMAIL_BACKEND = env_str("VAKT_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("VAKT_EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("VAKT_EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("VAKT_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = env_str("VAKT_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = env_bool("VAKT_EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 30
DEFAULT_FROM_EMAIL = env_str("VAKT_EMAIL_FROM", "Vakt <vakt@localhost>")

# --- files ---------------------------------------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise expects it even when serving from finders
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = DATA_DIR / "media"
# Report files and batch screening files: the data directory's media folder, or an S3-compatible
# bucket (AWS S3, MinIO, Ceph; needs the `s3` extra: django-storages with boto3) when
# VAKT_S3_BUCKET is set. Several web and worker hosts need the bucket (or one shared folder).
VAKT_S3_BUCKET = env_str("VAKT_S3_BUCKET", "")
if VAKT_S3_BUCKET:
    _file_storage: dict = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": VAKT_S3_BUCKET,
            "endpoint_url": env_url("VAKT_S3_ENDPOINT_URL", "", schemes=("http", "https")) or None,
            "region_name": env_str("VAKT_S3_REGION", "") or None,
            "access_key": env_str("VAKT_S3_ACCESS_KEY_ID", "") or None,
            "secret_key": env_str("VAKT_S3_SECRET_ACCESS_KEY", "") or None,
            "location": env_str("VAKT_S3_PREFIX", ""),
            "default_acl": None,  # private objects; files leave only through the API
            "file_overwrite": True,  # a report re-produced after a lost worker rewrites its fixed name
            "querystring_auth": True,
        },
    }
else:
    _file_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES = {
    "default": _file_storage,
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = True

# --- i18n, security, logging -----------------------------------------------------------

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "Europe/Oslo"
USE_I18N = True
USE_TZ = True

# Served over https (directly or behind a TLS proxy): cookies only over https, HSTS, http redirected to https.
VAKT_HTTPS = env_bool("VAKT_HTTPS", False)
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = VAKT_HTTPS
# The dashboard's forms and htmx requests take the token from the page (hx-headers), never from the cookie.
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SECURE = VAKT_HTTPS
SECURE_SSL_REDIRECT = VAKT_HTTPS
SECURE_HSTS_SECONDS = env_int("VAKT_HSTS_SECONDS", 31_536_000, minimum=0) if VAKT_HTTPS else 0
# Behind a proxy that terminates TLS and sets X-Forwarded-Proto (and strips the client's own).
if env_bool("VAKT_TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"

# Content security policy (django-csp): scripts and styles only from static files, no inline
# script, style element, style attribute or event handler; images also as data: URLs (Bootstrap's icons).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}
# Powerful browser features the dashboard never uses, off for it and anything it could embed.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer", "autoplay", "browsing-topics", "camera", "display-capture",
        "geolocation", "gyroscope", "hid", "idle-detection", "magnetometer", "microphone", "midi",
        "payment", "publickey-credentials-get", "screen-wake-lock", "serial", "usb", "xr-spatial-tracking",
    )
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "service.request_id.RequestIdFilter"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["request_id"]}
    },
    "root": {"handlers": ["console"], "level": env_str("VAKT_LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
