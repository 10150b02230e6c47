"""`make run`: the whole system on the embedded default, in one terminal.

Keeps a generated secret key in the data directory (unless VAKT_SECRET_KEY
is set), migrates, loads demo data once, (re)issues the demo organisation's API
credentials, connects the dashboard, then runs the web server and a Celery
worker with beat until Ctrl-C stops all of it. SQLite and kombu's filesystem
broker unless DATABASE_URL / REDIS_URL say otherwise.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from portal.secret_key import secret_key_ensure, secret_key_path  # noqa: E402

PYTHON = sys.executable
MANAGE = [PYTHON, str(ROOT / "manage.py")]
PORT = os.environ.get("VAKT_PORT", "8000")
DATA_DIR = Path(os.environ.get("VAKT_DATA_DIR", ROOT / "var"))
DEMO_ORGANISATION = "Demo Bank ASA"
SHARED_DATA = ROOT.parent / "shared" / "data"

# Each step runs once per data directory (marker files); a command that this
# checkout does not have yet is skipped with a note.
DEMO_STEPS: list[tuple[str, list[str]]] = [
    ("nace", ["import_nace", str(SHARED_DATA / "brreg" / "naeringskoder-sn2007.csv")]),
    ("geo", ["import_geo", str(SHARED_DATA / "brreg" / "fylker-2024.csv")]),
    ("orgforms", ["import_organization_types", str(SHARED_DATA / "brreg" / "organisasjonsformer.csv")]),
    ("enheter", ["import_enheter", str(SHARED_DATA / "brreg" / "enheter-selection.csv")]),
    ("group-units", ["import_enheter", str(SHARED_DATA / "brreg" / "konsern-enheter.csv")]),
    ("group-ownership", ["import_group_ownership", str(SHARED_DATA / "brreg" / "konsern-roller.csv")]),
    ("demo-companies", ["generate_demo", "--companies", "3000", "--seed", "7"]),
    ("un", ["import_screening_list", str(SHARED_DATA / "sanctions" / "un" / "UN_consolidated.xml")]),
    ("ofac", ["import_screening_list", str(SHARED_DATA / "sanctions" / "ofac" / "sdn.csv")]),
    ("pep", ["import_screening_list", str(SHARED_DATA / "pep" / "us_congress_senzing.json")]),
    # The demo organisation's screening: listed owners read from the lists imported above.
    ("screening-demo", ["load_screening_demo", "--organisation", DEMO_ORGANISATION]),
]
# Steps that need others to have run first: without their markers they wait for a later start.
DEMO_STEP_NEEDS: dict[str, tuple[str, ...]] = {"screening-demo": ("un", "ofac", "pep")}


def manage(*args: str, capture: bool = False) -> str:
    result = subprocess.run([*MANAGE, *args], cwd=ROOT, check=True, text=True, capture_output=capture)
    return result.stdout if capture else ""


def available_commands() -> set[str]:
    listing = manage("help", "--commands", capture=True)
    return {line.strip() for line in listing.splitlines() if line.strip()}


def load_demo_data() -> None:
    markers = DATA_DIR / "demo-loaded"
    markers.mkdir(parents=True, exist_ok=True)
    commands = available_commands()
    for name, args in DEMO_STEPS:
        if (markers / name).exists():
            continue
        waiting_for = [need for need in DEMO_STEP_NEEDS.get(name, ()) if not (markers / need).exists()]
        if waiting_for:
            print(f"  demo step {name}: skipped (needs {', '.join(waiting_for)} first)")
            continue
        missing_files = [a for a in args if a.startswith(str(SHARED_DATA)) and not Path(a).exists()]
        if args[0] not in commands or missing_files:
            print(f"  demo step {name}: skipped ({'no data file' if missing_files else 'command not available'})")
            continue
        print(f"  demo step {name}: manage.py {' '.join(args[:1])} ...", flush=True)
        manage(*args)
        (markers / name).touch()


def connect_dashboard() -> tuple[dict, str]:
    credentials = json.loads(
        manage(
            "create_api_user",
            "--organisation", DEMO_ORGANISATION,
            "--name", "Dashboard and demo integration",
            "--roles", "all",
            "--rotate",
            "--json",
            capture=True,
        )
    )
    users = manage(
        "dashboard_connect",
        "--name", DEMO_ORGANISATION,
        "--app-customer-uuid", credentials["app_customer_uuid"],
        "--client-id", credentials["token_auth_id"],
        f"--client-secret={credentials['token_auth_secret']}",  # "=": a secret may begin with "-"
        "--role-keys", ",".join(credentials["roles"]),
        "--user", "officer:officer",
        "--user", "admin:admin",
        "--user", "viewer:viewer",
        "--reset-passwords",
        capture=True,
    )
    return credentials, users


def keep_secret_key() -> None:
    """Without VAKT_SECRET_KEY, every process started here reads the key kept in the data directory."""
    if not os.environ.get("VAKT_SECRET_KEY"):
        secret_key_ensure(DATA_DIR)  # generated on the first start, reused after (mode 0600)
        print(f"Secret key: {secret_key_path(DATA_DIR)}", flush=True)


def main() -> int:
    keep_secret_key()
    for folder in ("processed", "control"):
        (DATA_DIR / "broker" / folder).mkdir(parents=True, exist_ok=True)
    print("Migrating the database ...", flush=True)
    manage("migrate", "--noinput", "-v", "0")
    print("Loading demo data (first run only) ...", flush=True)
    load_demo_data()
    credentials, users = connect_dashboard()

    processes = [
        subprocess.Popen([*MANAGE, "runserver", f"127.0.0.1:{PORT}", "--noreload"], cwd=ROOT),
        subprocess.Popen(
            [PYTHON, "-m", "celery", "-A", "portal", "worker", "-B", "-l", "warning", "--concurrency", "2"],
            cwd=ROOT,
        ),
    ]
    time.sleep(2)
    url = f"http://127.0.0.1:{PORT}/"
    print(
        f"""
================================================================
 Vakt is running: {url}
 Dashboard logins (passwords are new on every start):
{''.join('   ' + line + chr(10) for line in users.splitlines() if line.startswith('user:'))}
 API ({DEMO_ORGANISATION}, all roles; README "Quickstart" walks through it):
   app customer uuid:    {credentials['app_customer_uuid']}
   basic auth id/secret: {credentials['basic_auth_id']} / {credentials['basic_auth_secret']}
   token auth id/secret: {credentials['token_auth_id']} / {credentials['token_auth_secret']}
   API reference:        {url}documentation  (log in with the basic auth id/secret)
 Ctrl-C stops the web server, the worker and beat.
================================================================
""",
        flush=True,
    )

    def stop(*_args) -> None:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        sys.exit(0)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while all(process.poll() is None for process in processes):
        time.sleep(1)
    print("A process stopped; shutting the rest down.", file=sys.stderr)
    stop()
    return 1


if __name__ == "__main__":
    sys.exit(main())
