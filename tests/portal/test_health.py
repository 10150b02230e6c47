"""The health page: database, broker, worker and service API checks, as HTML and JSON."""

from datetime import timedelta

import pytest
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


def test_it_is_healthy_after_a_heartbeat(db, client, stopped_clock):
    worker_heartbeat()  # the clock stopped: "0 s ago" however loaded the machine

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


def test_it_shows_the_checks_as_a_page_in_words(db, client):
    response = client.get(HEALTH)

    page = response.content.decode()
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    for title in ("Dashboard records", "Background queue", "Background worker", "Analysis service"):
        assert f'<div class="fw-semibold">{title}</div>' in page
    assert "degraded" in page
    assert "The background worker has not reported for a while: it is stopped, starting, or busy" in page
    assert "no heartbeat from a worker yet" not in page  # the technical detail is for admins only


def test_the_page_says_all_good_when_healthy(db, client):
    worker_heartbeat()

    response = client.get(HEALTH)

    assert response.status_code == 200
    assert "all good" in response.content.decode()
    assert "not working" not in response.content.decode()


def test_it_is_never_cached(db, client):
    response = client.get(HEALTH)

    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_for_an_admin_it_checks_the_members_own_credentials(db):
    from portal.models import Member
    from tests.portal.conftest import make_member

    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)

    service = _checks(admin.client().get(HEALTH, {"format": "json"}))["Service API"]

    assert service["ok"] is True
    assert str(admin.app_customer.uuid) in service["detail"]


def test_it_reports_a_member_whose_credentials_are_refused(member):
    member.organisation.api_client_secret = "not the secret"
    member.organisation.save()

    response = member.client().get(HEALTH, {"format": "json"})

    service = _checks(response)["Service API"]
    assert response.status_code == 503
    assert service["ok"] is False
    assert "ServiceUnauthorized" in service["detail"]


def test_an_admin_sees_the_technical_details_behind_a_toggle(db):
    from portal.models import Member
    from tests.portal.conftest import make_member

    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)

    page = admin.client().get(HEALTH).content.decode()

    details = page.split('<details data-testid="health-details"')[1].split("</details>")[0]
    assert "Technical details" in details
    assert str(admin.app_customer.uuid) in details  # the service's answer names the organisation
    assert "no heartbeat from a worker yet" in details


@pytest.mark.parametrize("role", ["officer", "viewer"])
def test_an_officer_or_viewer_sees_no_technical_ids(db, role):
    from tests.portal.conftest import make_member

    someone = make_member("Nordbank ASA", f"x{role}", role=role)

    page = someone.client().get(HEALTH).content.decode()

    assert "health-details" not in page and "Technical details" not in page
    assert str(someone.app_customer.uuid) not in page
    assert "Analysis service" in page and "company data, watchlists and reports are available" in page
    # nor through the JSON: the service's answer names the organisation's API user and its ids
    service = _checks(someone.client().get(HEALTH, {"format": "json"}))["Service API"]
    assert service["ok"] is True and service["detail"] == "answering"
    assert str(someone.app_customer.uuid) not in str(service) and str(someone.credentials.api_user.uuid) not in str(service)
