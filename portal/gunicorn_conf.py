"""gunicorn's settings for the web processes (`gunicorn portal.wsgi:application --config
python:portal.gunicorn_conf`), read from the environment through portal/settings.py."""

from portal import settings

bind = settings.VAKT_WEB_BIND
workers = settings.VAKT_WEB_WORKERS
threads = settings.VAKT_WEB_THREADS
timeout = settings.VAKT_WEB_TIMEOUT_SECONDS  # a request running longer gets its worker restarted
graceful_timeout = 30
max_requests = 2000  # workers are replaced now and then; memory held by one request goes with it
max_requests_jitter = 200
accesslog = "-"
forwarded_allow_ips = settings.VAKT_WEB_FORWARDED_ALLOW_IPS


def post_worker_init(worker) -> None:
    """Each web worker, once it has loaded the app: the collector tuned for a long-running process
    (portal/gc_tuning.py)."""
    from portal.gc_tuning import gc_tune_after_startup

    gc_tune_after_startup()
