"""A small production layout on this machine, for the scale-out and fault tests: gunicorn web
processes and Celery workers as real subprocesses on the test's PostgreSQL database and a
Redis broker, plus the pieces the fault tests cut (a TCP proxy, a Redis server of their own).

Every process gets the same environment (portal.settings read from it, as in production); the
workers write their log to a file, from which `WorkerLog` reads which worker ran which task.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
import requests
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
# Abandoned messages of a killed worker come back after this many seconds (production: an hour).
# A task running longer is handed out a second time (the scale-out test uses a longer one).
VISIBILITY_TIMEOUT_SECONDS = 15

# One cluster at a time on a machine (they share the broker database): its processes' groups
# are written, one pid a line, beside the lock. A test run killed before its cluster stopped
# leaves them running (each has a session of its own) and taking the next cluster's tasks on
# the shared broker and test database; the next cluster stops them first.
LOCK = Path(os.environ.get("TMPDIR", "/tmp")) / "vakt-test-cluster.lock"
GROUPS = LOCK.with_suffix(".groups")

postgresql_and_redis = pytest.mark.skipif(
    connection.vendor != "postgresql" or not settings.REDIS_URL,
    reason="runs processes that share a PostgreSQL database and a Redis broker",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(*, port: int | None = None) -> str:
    """The test database (the one pytest-django made) as a URL, optionally through another port."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{port or db['PORT'] or 5432}/{db['NAME']}"


def leftovers_stop() -> list[int]:
    """Kill the process groups a cluster recorded and did not stop; returns those killed. Call
    with the lock held."""
    killed = []
    for pgid in map(int, GROUPS.read_text().split() if GROUPS.exists() else []):
        if _cluster_process(pgid) is False:  # the pid now names someone else's process
            continue
        try:
            os.killpg(pgid, signal.SIGKILL)
            killed.append(pgid)
        except ProcessLookupError:
            pass
    GROUPS.write_text("")
    return killed


def _cluster_process(pid: int) -> bool | None:
    """Whether pid runs a web process or worker of ours; None when no process has it (its
    group may live on in its children)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return b"portal" in cmdline and (b"celery" in cmdline or b"gunicorn" in cmdline)


def _group_record(process: subprocess.Popen) -> None:
    with GROUPS.open("a") as groups:
        groups.write(f"{process.pid}\n")


def wait_for(condition, *, timeout: float, what: str, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(interval)


class Cluster:
    """Web and worker processes on one environment; stopped (and killed if need be) on exit."""

    def __init__(self, folder: Path, *, broker_url: str, db_url: str | None = None, visibility_timeout: int) -> None:
        self.folder = folder
        self.broker_url = broker_url
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "portal.settings",
            "DATABASE_URL": db_url or database_url(),
            "REDIS_URL": broker_url,
            "VAKT_DATA_DIR": str(folder / "data"),
            "VAKT_BROKER_VISIBILITY_TIMEOUT_SECONDS": str(visibility_timeout),
            "VAKT_WORKER_WARM_UP": "0",
            "VAKT_LOG_LEVEL": "INFO",
            "VAKT_RATE_LIMIT_PER_MINUTE": "0",
            "PYTHONUNBUFFERED": "1",
        }
        self.webs: dict[str, subprocess.Popen] = {}
        self.workers: dict[str, subprocess.Popen] = {}
        self.ports: dict[str, int] = {}
        self.urls: dict[str, str] = {}

    def web_start(self, name: str) -> str:
        port = free_port()
        log = open(self.folder / f"{name}.log", "ab")
        self.webs[name] = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "portal.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", "1", "--threads", "4", "--timeout", "60", "--graceful-timeout", "5"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        _group_record(self.webs[name])
        self.ports[name] = port
        url = f"http://127.0.0.1:{port}"
        wait_for(lambda: _answers(url), timeout=90, what=f"web process {name} answering on {url}")
        self.urls[name] = url
        return url

    def worker_start(self, name: str, *, beat: bool = False, env: dict | None = None) -> None:
        log = self.folder / f"{name}.log"
        offset = log.stat().st_size if log.exists() else 0
        self.workers[name] = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "portal", "worker", "--pool", "solo", "-n", f"{name}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "INFO",
             "--logfile", str(log), *(["--beat", "--schedule", str(self.folder / "beat-schedule")] if beat else [])],
            cwd=ROOT, env={**self.env, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
        )
        _group_record(self.workers[name])
        wait_for(
            lambda: log.exists() and " ready." in log.read_text(errors="replace")[offset:],
            timeout=90, what=f"worker {name} ready",
        )

    def worker_kill(self, name: str) -> None:
        """SIGKILL: no warm shutdown, the message it holds stays unacknowledged."""
        process = self.workers.pop(name)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def log(self) -> WorkerLog:
        return WorkerLog({name: self.folder / f"{name}.log" for name in ("w1", "w2")})

    def stop(self) -> None:
        processes = list(self.webs.values()) + list(self.workers.values())
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


def _answers(url: str) -> bool:
    try:
        requests.get(url + "/analysis/v1/partner-report-type", timeout=10)  # the first loads the URL conf
        return True
    except requests.RequestException:
        return False


_SUCCEEDED = re.compile(r"Task (?P<task>[\w.]+)\[(?P<id>[0-9a-f-]+)\] succeeded")
_ORDER = re.compile(r"Partner report order (?P<order>[0-9a-f-]{36}): (?P<status>\w+)")
_CHUNK = re.compile(r"Screening run chunk (?P<chunk>[0-9a-f-]{36}): ")
_LIST = re.compile(r"Screening list (?P<category>\w+): ")


class WorkerLog:
    """What each worker's log says it did: tasks that succeeded, orders, chunks and list imports."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.text = {name: path.read_text(errors="replace") if path.exists() else "" for name, path in files.items()}

    def task_ids(self) -> Counter:
        return Counter(m["id"] for text in self.text.values() for m in _SUCCEEDED.finditer(text))

    def by_worker(self, task_suffix: str) -> dict[str, int]:
        return {
            name: sum(1 for m in _SUCCEEDED.finditer(text) if m["task"].endswith(task_suffix))
            for name, text in self.text.items()
        }

    def orders(self) -> Counter:
        return Counter(m["order"] for text in self.text.values() for m in _ORDER.finditer(text))

    def mentions(self, folder: Path, word: str) -> str:
        """Every line of every log in `folder` (web and workers) that names `word`: for an
        assertion's message, so that a failure says which process did what."""
        lines = [
            f"{path.name}: {line}"
            for path in sorted(folder.glob("*.log"))
            for line in path.read_text(errors="replace").splitlines()
            if word in line
        ]
        return "\n".join(lines) or f"no log in {folder} names {word}"

    def chunks(self) -> Counter:
        return Counter(m["chunk"] for text in self.text.values() for m in _CHUNK.finditer(text))


@contextmanager
def cluster_running(
    tmp_path: Path, *, webs: int = 2, workers: int = 2, broker_url: str | None = None, db_url=None,
    visibility_timeout: int = VISIBILITY_TIMEOUT_SECONDS, env: dict | None = None, beat: bool = False,
):
    """`webs` gunicorn processes (w/web1, web2 ...) and `workers` workers (w1, w2 ...) on an empty
    broker; the test process enqueues to the same broker (not eagerly) while it runs. One cluster
    at a time on a machine (LOCK); a cluster an earlier, killed run left is stopped first."""
    from portal.celery import app

    broker_url = broker_url or settings.REDIS_URL
    lock = open(LOCK, "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    leftovers_stop()
    redis.Redis.from_url(broker_url).flushdb()
    (tmp_path / "data").mkdir(exist_ok=True)
    cluster = Cluster(tmp_path, broker_url=broker_url, db_url=db_url, visibility_timeout=visibility_timeout)
    cluster.env.update(env or {})
    eager, app_broker = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager = False
    app.conf.broker_url = broker_url
    app.conf.broker_transport_options = {"visibility_timeout": visibility_timeout}
    _producer_pool_reset(app)
    try:
        threads = [threading.Thread(target=cluster.web_start, args=(f"web{i + 1}",)) for i in range(webs)]
        threads += [
            threading.Thread(target=cluster.worker_start, args=(f"w{i + 1}",), kwargs={"beat": beat and i == 0})
            for i in range(workers)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if len(cluster.ports) != webs or len(cluster.workers) != workers:
            raise AssertionError(f"the cluster did not start; logs in {tmp_path}")
        yield cluster
    finally:
        cluster.stop()
        GROUPS.write_text("")
        app.conf.task_always_eager, app.conf.broker_url = eager, app_broker
        app.conf.broker_transport_options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
        _producer_pool_reset(app)
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def _producer_pool_reset(app) -> None:
    """The test process publishes through a fresh pool, on the broker configured now."""
    from kombu import pools

    pools.reset()  # closes and forgets kombu's pools, keyed by broker URL
    app._pool = None
    app.amqp._producer_pool = None


class TcpProxy:
    """A TCP relay from a local port to `target`; `cut()` closes every connection and refuses new
    ones (the server looks gone), `restore()` accepts again."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.open = True
        self.connections: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.listener.settimeout(0.2)
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            if not self.open:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.connections += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, target):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self) -> None:
        self.open = False
        with self.lock:
            for s in self.connections:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self.connections.clear()

    def restore(self) -> None:
        self.open = True

    def close(self) -> None:
        self.running = False
        self.cut()
        self.listener.close()


class RedisServer:
    """A redis-server of the test's own on a spare port (never the machine's shared one), with
    an append-only file so that a restart keeps what was queued."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        self.binary, self.folder, self.port = binary, folder, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--appendonly", "yes", "--appendfsync", "always", "--save", ""],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
        )
        wait_for(lambda: _pings(self.url), timeout=20, what="redis-server answering")

    def kill(self) -> None:
        """SIGKILL: what was written is only in the append-only file."""
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)


def _pings(url: str) -> bool:
    try:
        return redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
    except redis.ConnectionError:
        return False


class HttpCaller:
    """The API over real HTTP, as an integrator calls it: basic auth of an API user."""

    def __init__(self, base_url: str, credentials) -> None:
        self.base_url = base_url
        self.auth = (credentials.basic_auth_id, credentials.basic_auth_secret)
        self.app_customer_uuid = credentials.api_user.app_customer_id

    def _headers(self, roles) -> dict:
        return {"Nk-Role-Keys": ",".join(roles)} if roles else {}

    def post(self, path: str, body, *, roles=None) -> requests.Response:
        return requests.post(self.base_url + path, json=body, auth=self.auth, headers=self._headers(roles), timeout=30)

    def get(self, path: str, params=None, *, roles=None) -> requests.Response:
        return requests.get(self.base_url + path, params=params, auth=self.auth, headers=self._headers(roles), timeout=30)


class FileServer:
    """Serves a folder over HTTP on 127.0.0.1 (where a list's refresh URL points) and counts
    the requests per path; `on_request(path)` is called before each answer."""

    def __init__(self, folder: Path, on_request=None) -> None:
        import functools
        from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

        server = self
        self.requests: Counter = Counter()
        self.on_request = on_request

        class Handler(SimpleHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the http.server name
                server.requests[self.path] += 1
                if server.on_request:
                    server.on_request(self.path)
                super().do_GET()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
