"""The cache: Redis when REDIS_URL is set, else files under the data directory, shared by every
process of the deployment (the web server reads what the worker's refresh wrote)."""

import os
import subprocess
import time
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_VARIABLES = ("DATABASE_URL", "REDIS_URL", "VAKT_")


def _run(tmp_path, script: str, **env) -> subprocess.CompletedProcess:
    """`script` after django.setup(), in a process of its own with `tmp_path` as data directory."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith(SETTINGS_VARIABLES)}
    clean.update(
        {"DJANGO_SETTINGS_MODULE": "portal.settings", "VAKT_DATA_DIR": str(tmp_path), "VAKT_SECRET_KEY": "k" * 50},
        **env,
    )
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + script],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120,
    )


def test_the_embedded_default_cache_is_shared_by_processes(tmp_path):
    written = _run(tmp_path, "from django.core.cache import cache; cache.set('refreshed-by', 'the worker', 60)")
    read = _run(tmp_path, "from django.core.cache import cache; print('read', cache.get('refreshed-by'))")

    assert written.returncode == 0, written.stderr
    assert read.returncode == 0, read.stderr
    assert "read the worker" in read.stdout
    assert any((tmp_path / "cache").iterdir())  # under the data directory


def test_with_redis_url_the_cache_is_redis(tmp_path):
    result = _run(
        tmp_path,
        "from django.conf import settings; c = settings.CACHES['default']; print(c['BACKEND'], c['LOCATION'])",
        REDIS_URL="redis://127.0.0.1:6379/13",
    )

    assert result.returncode == 0, result.stderr
    assert "django.core.cache.backends.redis.RedisCache redis://127.0.0.1:6379/13" in result.stdout
    assert not (tmp_path / "cache").exists()


def test_increments_from_processes_at_once_all_count(tmp_path):
    setup = _run(tmp_path, "from django.core.cache import cache; cache.set('hits', 0, 60)")
    assert setup.returncode == 0, setup.stderr
    script = "from django.core.cache import cache\nfor _ in range(150): cache.incr('hits')"
    clean = {key: value for key, value in os.environ.items() if not key.startswith(SETTINGS_VARIABLES)}
    clean.update({"DJANGO_SETTINGS_MODULE": "portal.settings", "VAKT_DATA_DIR": str(tmp_path), "VAKT_SECRET_KEY": "k" * 50})
    workers = [
        subprocess.Popen([sys.executable, "-c", "import django; django.setup()\n" + script], cwd=ROOT, env=clean)
        for _ in range(3)
    ]
    assert [w.wait(timeout=120) for w in workers] == [0, 0, 0]

    read = _run(tmp_path, "from django.core.cache import cache; print('hits', cache.get('hits'))")

    assert "hits 450" in read.stdout, read.stdout + read.stderr


def test_an_increment_keeps_the_keys_expiry(tmp_path):
    from portal.cache import SharedFileCache

    cache = SharedFileCache(str(tmp_path), {})
    cache.set("failures", 1, timeout=1)

    assert cache.incr("failures") == 2 and cache.get("failures") == 2
    time.sleep(1.2)

    assert cache.get("failures") is None  # not the default five minutes
    cache.add("new", 0, timeout=60)
    assert cache.incr("new", 3) == 3 and cache.decr("new") == 2
    try:
        cache.incr("missing")
    except ValueError:
        pass
    else:  # pragma: no cover - the assertion names it
        raise AssertionError("incrementing a missing key must raise ValueError, as Django's caches do")
