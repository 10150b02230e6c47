"""The production layout's settings (deploy/vakt.env.example, the compose file's env file) load
through portal/settings.py and mean what docs/production.md says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_it_loads_the_production_example_settings(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "portal.settings", "VAKT_DATA_DIR": str(tmp_path)}
    for line in (ROOT / "deploy" / "vakt.env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, value = line.split("=", 1)
            env[name] = value
    script = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "from portal import gunicorn_conf as g; print(json.dumps({"
        "'storage': s.STORAGES['default'], 'broker': s.CELERY_BROKER_URL, 'transport': s.CELERY_BROKER_TRANSPORT_OPTIONS, "
        "'acks_late': s.CELERY_TASK_ACKS_LATE, 'reject_on_lost': s.CELERY_TASK_REJECT_ON_WORKER_LOST, "
        "'resume': sorted(k for k in s.CELERY_BEAT_SCHEDULE if k.endswith('-resume')), "
        "'web': [g.bind, g.workers, g.threads, g.forwarded_allow_ips], 'secure': s.SESSION_COOKIE_SECURE}))"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr

    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert loaded["storage"]["BACKEND"] == "storages.backends.s3.S3Storage"
    assert loaded["storage"]["OPTIONS"]["bucket_name"] == "vakt"
    assert loaded["storage"]["OPTIONS"]["endpoint_url"] == "http://minio:9000"
    assert loaded["broker"] == "redis://redis:6379/0"
    assert loaded["transport"]["visibility_timeout"] == 3600
    assert loaded["acks_late"] and loaded["reject_on_lost"]
    assert loaded["resume"] == [
        "customer-person-imports-resume", "report-downloads-resume", "report-orders-resume", "screening-batches-resume",
        "screening-chunks-resume",
        "screening-config-rescreens-resume", "screening-list-versions-resume", "screening-monitorings-resume",
    ]
    assert loaded["web"] == ["0.0.0.0:8000", 3, 4, "*"]
    assert loaded["secure"] is True


def test_a_web_worker_loads_the_api_then_takes_its_startup_objects_out_of_the_collectors_view(tmp_path):
    """gunicorn's post_worker_init (portal/gc_tuning.py): full collections then scan only what requests make."""
    script = (
        "import gc, json, sys; import portal.wsgi; from portal import gunicorn_conf as g; "
        "before = gc.get_freeze_count(); g.post_worker_init(None); "
        "print(json.dumps({'before': before, 'frozen': gc.get_freeze_count(), 'threshold': gc.get_threshold(), "
        "'api_loaded': 'service.screening.case_batch_api' in sys.modules}))"
    )
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "portal.settings", "VAKT_DATA_DIR": str(tmp_path),
           "VAKT_SECRET_KEY": "a-key-for-this-test-only-" + "x" * 40}
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr

    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert loaded["before"] == 0 and loaded["frozen"] > 100_000  # the app, its views and the API, loaded at startup
    assert loaded["api_loaded"] and loaded["threshold"] == [50_000, 20, 10]
