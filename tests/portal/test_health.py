"""The health page: database, broker, worker and service API checks, as HTML and JSON."""

from datetime import timedelta

from django.utils import timezone

from portal.models import WorkerHeartbeat
from portal.tasks import worker_heartbeat

HEALTH = "/health/"
CHECKS = ["Database", "Broker", "Worker", "Service API"]


def _checks(response) -> dict:
    return {check["name"]: check for check in response.json()["checks"]}


def test_it_lists_every_check_as_json(db, client):
    response = client.get(HEALTH, {"format": "json"})

    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert [check["name"] for check in body["checks"]] == CHECKS
    for check in body["checks"]:
        assert set(check) == {"name", "ok", "detail", "ms"}
        assert check["ms"] >= 0


def test_the_database_broker_and_service_are_ok(db, client):
    checks = _checks(client.get(HEALTH, {"format": "json"}))

    assert checks["Database"]["ok"] is True
    assert checks["Database"]["detail"] in ("sqlite", "postgresql")
    assert checks["Broker"]["ok"] is True, checks["Broker"]["detail"]
    assert checks["Service API"]["ok"] is True, checks["Service API"]["detail"]
    assert checks["Service API"]["detail"] == "answering"


def test_the_worker_fails_until_a_heartbeat_exists(db, client):
    response = client.get(HEALTH, {"format": "json"})

    assert response.status_code == 503
    assert response.json()["healthy"] is False
    worker = _checks(response)["Worker"]
    assert worker["ok"] is False
    assert "no heartbeat from a worker yet" in worker["detail"]


def test_it_is_healthy_after_a_heartbeat(db, client):
    worker_heartbeat()

    response = client.get(HEALTH, {"format": "json"})

    assert response.status_code == 200
    assert response.json()["healthy"] is True
    assert _checks(response)["Worker"]["detail"].startswith("last heartbeat 0 s ago")


def test_a_stale_heartbeat_fails(db, client):
    stale = timezone.now() - timedelta(seconds=WorkerHeartbeat.STALE_AFTER_SECONDS + 30)
    WorkerHeartbeat.objects.create(name="worker", seen_at=stale)

    response = client.get(HEALTH, {"format": "json"})

    assert response.status_code == 503
    assert _checks(response)["Worker"]["ok"] is False
    assert "last heartbeat 15" in _checks(response)["Worker"]["detail"]


def test_the_heartbeat_task_is_idempotent(db):
    worker_heartbeat()
    worker_heartbeat()

    assert WorkerHeartbeat.objects.filter(name="worker").count() == 1


def test_it_shows_the_checks_as_a_page(db, client):
    response = client.get(HEALTH)

    page = response.content.decode()
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    for name in CHECKS:
        assert f"<td>{name}</td>" in page
    assert "degraded" in page
    assert "no heartbeat from a worker yet" in page


def test_the_page_says_all_good_when_healthy(db, client):
    worker_heartbeat()

    response = client.get(HEALTH)

    assert response.status_code == 200
    assert "all good" in response.content.decode()
    assert "failing" not in response.content.decode()


def test_it_is_never_cached(db, client):
    response = client.get(HEALTH)

    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_for_a_member_it_checks_the_members_own_credentials(member):
    client = member.client()

    service = _checks(client.get(HEALTH, {"format": "json"}))["Service API"]

    assert service["ok"] is True
    assert str(member.app_customer.uuid) in service["detail"]


def test_it_reports_a_member_whose_credentials_are_refused(member):
    member.organisation.api_client_secret = "not the secret"
    member.organisation.save()

    response = member.client().get(HEALTH, {"format": "json"})

    service = _checks(response)["Service API"]
    assert response.status_code == 503
    assert service["ok"] is False
    assert "ServiceUnauthorized" in service["detail"]
