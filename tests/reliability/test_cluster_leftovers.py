"""The test clusters themselves: a test run killed while its cluster ran leaves its workers
running (each has a session of its own), on the shared broker and the same test database, where
they would take the next run's tasks; the next cluster stops them first."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.cluster import ROOT, cluster_running, database_url, postgresql_and_redis, wait_for

pytestmark = [postgresql_and_redis, pytest.mark.django_db(transaction=True)]

# A cluster with one worker in a Python of its own, killed (SIGKILL, no clean-up) once it runs.
ABANDONED_RUN = """
import os, signal, sys
from pathlib import Path
import django
django.setup()
from tests.reliability.cluster import cluster_running
with cluster_running(Path(sys.argv[1]), webs=0, workers=1) as cluster:
    print(cluster.workers["w1"].pid, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent counts as stopped)."""
    try:
        return not Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except FileNotFoundError:
        return False


def test_it_stops_the_worker_a_killed_test_run_left_running(tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "portal.settings_test", "DATABASE_URL": database_url()}
    run = subprocess.run(
        [sys.executable, "-c", ABANDONED_RUN, str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=180,
    )
    assert run.returncode == -signal.SIGKILL, run.stderr
    worker = int(run.stdout.split()[0])  # left running; when tests run in parallel, another
    # test's cluster may take the lock first and stop it: that is the same rule at work.

    (tmp_path / "next").mkdir()
    try:
        with cluster_running(tmp_path / "next", webs=0, workers=0):
            wait_for(lambda: not alive(worker), timeout=10, what="the abandoned worker stopped")
    finally:
        if alive(worker):
            os.killpg(worker, signal.SIGKILL)
