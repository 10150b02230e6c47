"""Bad settings stop start-up with a message naming the variable."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_VARIABLES = ("DATABASE_URL", "REDIS_URL", "VAKT_")


A_KEY = "k" * 50
# The old constant development key: in the public source, so it must never sign anything.
OLD_DEVELOPMENT_KEY = "dev-only-insecure-secret-key-change-me-in-production-0123456789"


def _start(tmp_path, **env) -> subprocess.CompletedProcess:
    """Settings loaded in a process of their own with a clean environment and `tmp_path` as data directory."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith(SETTINGS_VARIABLES)}
    clean.update({"DJANGO_SETTINGS_MODULE": "portal.settings", "VAKT_DATA_DIR": str(tmp_path)}, **env)
    script = (
        "import django; django.setup(); from django.conf import settings; "
        "print('started'); print('key', settings.SECRET_KEY); print('jwt', settings.VAKT_JWT_SECRET)"
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _printed(result, name: str) -> str:
    return next(line.split(" ", 1)[1] for line in result.stdout.splitlines() if line.startswith(name + " "))


def test_it_starts_with_the_defaults_and_a_secret_key(tmp_path):
    result = _start(tmp_path, VAKT_SECRET_KEY=A_KEY)

    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout
    assert _printed(result, "key") == A_KEY


def test_it_refuses_to_start_without_a_secret_key_outside_debug(tmp_path):
    result = _start(tmp_path)

    assert result.returncode != 0
    assert "started" not in result.stdout
    last_line = result.stderr.strip().splitlines()[-1]
    assert "ImproperlyConfigured" in last_line
    assert "VAKT_SECRET_KEY must be set" in last_line
    assert list(tmp_path.iterdir()) == []  # and invents no key of its own


def test_in_debug_it_generates_a_key_once_into_the_data_directory(tmp_path):
    first = _start(tmp_path, VAKT_DEBUG="true")
    second = _start(tmp_path, VAKT_DEBUG="true")

    assert first.returncode == 0, first.stderr
    key_file = tmp_path / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = _printed(first, "key")
    assert key == key_file.read_text().strip()
    assert len(key) >= 32 and key != OLD_DEVELOPMENT_KEY
    assert _printed(second, "key") == key  # reused, not generated again
    assert _start(tmp_path / "elsewhere", VAKT_DEBUG="true").stdout.count(key) == 0  # random per data directory


def test_outside_debug_it_uses_the_key_kept_in_the_data_directory(tmp_path):
    (tmp_path / "secret_key").write_text(A_KEY + "\n")

    result = _start(tmp_path)

    assert result.returncode == 0, result.stderr
    assert _printed(result, "key") == A_KEY


def test_the_token_signing_key_is_derived_from_the_secret_key_not_a_constant(tmp_path):
    one = _start(tmp_path, VAKT_SECRET_KEY=A_KEY)
    other = _start(tmp_path, VAKT_SECRET_KEY="o" * 50)
    chosen = _start(tmp_path, VAKT_SECRET_KEY=A_KEY, VAKT_JWT_SECRET="j" * 40)

    assert _printed(one, "jwt") != _printed(other, "jwt")
    assert A_KEY not in _printed(one, "jwt")
    assert _printed(one, "jwt") != OLD_DEVELOPMENT_KEY + ":jwt"
    assert _printed(chosen, "jwt") == "j" * 40


def test_make_run_keeps_a_generated_key_for_its_processes(tmp_path):
    """scripts/run.py creates the key file before it starts anything, so a non-debug start works."""
    script = (
        "import sys, runpy; sys.argv = ['run.py']; module = runpy.run_path('scripts/run.py', run_name='vakt_run'); "
        "module['keep_secret_key']()"
    )
    clean = {key: value for key, value in os.environ.items() if not key.startswith(SETTINGS_VARIABLES)}
    made = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env={**clean, "VAKT_DATA_DIR": str(tmp_path)},
        capture_output=True, text=True, timeout=120,
    )
    assert made.returncode == 0, made.stderr

    result = _start(tmp_path)

    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600


def test_it_starts_with_good_values(tmp_path):
    result = _start(
        tmp_path,
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        REDIS_URL="redis://127.0.0.1:6379/0",
        VAKT_DEBUG="false",
        VAKT_TOKEN_LIFETIME_SECONDS="3600",
        VAKT_RATE_LIMIT_PER_MINUTE="0",
        VAKT_SECRET_KEY="x" * 50,
        VAKT_SERVICE_URL="https://vakt.example",
    )

    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "variable, value, says",
    [
        ("DATABASE_URL", "mysql://x", "must be a URL starting with"),
        ("DATABASE_URL", "not a url", "must be a URL starting with"),
        ("DATABASE_URL", "postgres://user@host:notaport/db", "DATABASE_URL"),
        ("REDIS_URL", "http://x", "must be a URL starting with"),
        ("VAKT_TOKEN_LIFETIME_SECONDS", "abc", "must be a whole number"),
        ("VAKT_TOKEN_LIFETIME_SECONDS", "10", "must be at least 60"),
        ("VAKT_RATE_LIMIT_PER_MINUTE", "-1", "must be at least 0"),
        ("VAKT_MAX_BODY_BYTES", "1.5", "must be a whole number"),
        ("VAKT_LOGIN_ATTEMPTS", "0", "must be at least 1"),
        ("VAKT_DEBUG", "maybe", "must be a boolean"),
        ("VAKT_SECRET_KEY", "short", "at least 32 characters"),
        ("VAKT_JWT_SECRET", "short", "at least 32 characters"),
        ("VAKT_SERVICE_URL", "localhost:8000", "must be a URL starting with"),
        ("VAKT_BASE_URL", "ftp://vakt.example", "must be a URL starting with"),
    ],
)
def test_a_bad_value_stops_start_up_naming_the_variable(tmp_path, variable, value, says):
    result = _start(tmp_path, **{"VAKT_SECRET_KEY": A_KEY, variable: value})

    assert result.returncode != 0
    assert "started" not in result.stdout
    assert "ImproperlyConfigured" in result.stderr
    last_line = result.stderr.strip().splitlines()[-1]
    assert variable in last_line
    assert says in last_line

