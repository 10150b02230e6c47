"""The PostgreSQL database a benchmark runs on, and Django set up against it.

DATABASE_URL when it names PostgreSQL; otherwise a scratch database of the
benchmark's own on 127.0.0.1, made anew unless `reuse` keeps the one there.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRATCH_SERVER = "postgres://postgres@127.0.0.1:5432"


def scratch_database_url(name: str, *, reuse: bool) -> str:
    given = os.environ.get("DATABASE_URL", "")
    if given.startswith(("postgres://", "postgresql://")):
        return given
    import psycopg

    with psycopg.connect(f"{SCRATCH_SERVER}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists and not reuse:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        if not exists or not reuse:
            conn.execute(f'CREATE DATABASE "{name}"')
    return f"{SCRATCH_SERVER}/{name}"


def django_setup(database_url: str, *, settings_module: str = "portal.settings") -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    # Production settings need a key (inherited by the servers and workers a bench starts);
    # a scratch database signs nothing worth keeping.
    os.environ.setdefault("VAKT_SECRET_KEY", secrets.token_urlsafe(48))
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
