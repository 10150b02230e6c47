"""Bad settings stop start-up with a message naming the variable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_VARIABLES = ("DATABASE_URL", "REDIS_URL", "VAKT_")


def _start(tmp_path, **env) -> subprocess.CompletedProcess:
    clean = {key: value for key, value in os.environ.items() if not key.startswith(SETTINGS_VARIABLES)}
    clean.update({"DJANGO_SETTINGS_MODULE": "portal.settings", "VAKT_DATA_DIR": str(tmp_path)}, **env)
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); print('started')"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_starts_with_the_defaults(tmp_path):
    result = _start(tmp_path)

    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout


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
        ("VAKT_SERVICE_URL", "localhost:8000", "must be a URL starting with"),
        ("VAKT_BASE_URL", "ftp://vakt.example", "must be a URL starting with"),
    ],
)
def test_a_bad_value_stops_start_up_naming_the_variable(tmp_path, variable, value, says):
    result = _start(tmp_path, **{variable: value})

    assert result.returncode != 0
    assert "started" not in result.stdout
    assert "ImproperlyConfigured" in result.stderr
    last_line = result.stderr.strip().splitlines()[-1]
    assert variable in last_line
    assert says in last_line


def test_the_secret_key_is_required_when_asked_for(tmp_path):
    result = _start(tmp_path, VAKT_REQUIRE_SECRET="true")

    assert result.returncode != 0
    assert "VAKT_SECRET_KEY must be set" in result.stderr
