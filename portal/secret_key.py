"""The deployment's secret key when VAKT_SECRET_KEY is not set: a random key in the data directory.

There is no constant key anywhere. The embedded default (`make run`, or VAKT_DEBUG on)
generates one once into `<data dir>/secret_key`, readable by its owner only (0600), and
reuses it on every start; settings refuse to start without either outside debug.
Free of Django so scripts/run.py can create the file before any process starts.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

KEY_FILE_NAME = "secret_key"


def secret_key_path(data_dir: Path) -> Path:
    return Path(data_dir) / KEY_FILE_NAME


def secret_key_read(data_dir: Path) -> str | None:
    """The key kept in the data directory, or None when there is none."""
    try:
        return secret_key_path(data_dir).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None


def secret_key_ensure(data_dir: Path) -> str:
    """The kept key, generated first when there is none (safe when several processes start at once)."""
    existing = secret_key_read(data_dir)
    if existing is not None:
        return existing
    path = secret_key_path(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{KEY_FILE_NAME}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(secrets.token_urlsafe(48) + "\n")
        # link, not rename: if another process got there first, its key wins and nobody overwrites it
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink(missing_ok=True)
    return secret_key_read(data_dir) or ""
