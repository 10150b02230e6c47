"""/members/audit/export.csv: every record the audit page's filter selects, as a CSV file."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils import timezone

from portal import csv_export
from portal.models import Member
from portal.service import ServiceUnavailable
from portal.service.organisation import OrganisationAdminArea
from tests.portal.conftest import make_member
from tests.screening.steps import member_like


@pytest.fixture
def admin(db):
    return make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)


def _csv(response) -> list[dict]:
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")  # Excel reads it as UTF-8
    return list(csv.DictReader(io.StringIO(text[1:])))


def test_it_downloads_the_filtered_records_as_csv_with_formulas_made_harmless(admin):
    client = admin.client()
    client.post("/watchlists/", {"watchlist_name": "=HYPERLINK(\"http://evil\")"})
    client.post("/watchlists/", {"watchlist_name": "Kunder på Ålesund"})
    client.post("/members/invite/", {"email": "kari@nordbank.no", "full_name": "Kari Nordmann", "role": "viewer"})

    response = client.get("/members/audit/export.csv?kind=watchlists")

    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="audit-log-nordbank-asa-watchlists-{_today()}.csv"'
    )
    rows = _csv(response)
    assert [r["On"] for r in rows] == ["Kunder på Ålesund", "'=HYPERLINK(\"http://evil\")"]
    assert {r["What"] for r in rows} == {"Created a watchlist"} and {r["Who"] for r in rows} == {"ada@example.com"}
    assert rows[0]["Change"] == "Watchlist: Kunder på Ålesund"
    assert '"watchlist_name": "Kunder på Ålesund"' in rows[0]["After (JSON)"]
    everything = _csv(client.get("/members/audit/export.csv"))
    assert [r["What"] for r in everything] == ["Invited a member", "Created a watchlist", "Created a watchlist", "Created an API user"]


def test_it_reads_every_page_and_writes_a_record_made_meanwhile_once(admin, monkeypatch):
    client = admin.client()
    for n in range(5):
        client.post("/watchlists/", {"watchlist_name": f"Liste {n}"})
    monkeypatch.setattr(csv_export, "PAGE_SIZE", 2)
    calls = []
    read = OrganisationAdminArea.audit_events

    def reading_while_another_admin_works(self, **kwargs):
        page = read(self, **kwargs)
        calls.append(kwargs["offset"])
        if len(calls) == 1:  # a new record after the first page shifts the next pages by one
            client.post("/watchlists/", {"watchlist_name": "Made meanwhile"})
        return page

    monkeypatch.setattr(OrganisationAdminArea, "audit_events", reading_while_another_admin_works)

    rows = _csv(client.get("/members/audit/export.csv?kind=watchlists"))

    assert [r["On"] for r in rows] == [f"Liste {n}" for n in (4, 3, 2, 1, 0)]
    assert calls == [0, 2, 4]


def test_it_says_so_when_the_service_does_not_answer(admin, monkeypatch):
    def down(self, **kwargs):
        raise ServiceUnavailable(0, "unreachable", "connection refused")

    monkeypatch.setattr(OrganisationAdminArea, "audit_events", down)

    response = admin.client().get("/members/audit/export.csv?kind=watchlists", follow=True)

    assert response.redirect_chain[-1][0] == "/members/audit/?kind=watchlists"
    assert "The audit log could not be downloaded" in response.content.decode()


def test_a_file_cut_short_by_the_service_says_it_is_incomplete(admin, monkeypatch):
    client = admin.client()
    for n in range(3):
        client.post("/watchlists/", {"watchlist_name": f"Liste {n}"})
    monkeypatch.setattr(csv_export, "PAGE_SIZE", 2)
    read = OrganisationAdminArea.audit_events

    def failing_later(self, **kwargs):
        if kwargs["offset"] > 0:
            raise ServiceUnavailable(0, "unreachable", "connection refused")
        return read(self, **kwargs)

    monkeypatch.setattr(OrganisationAdminArea, "audit_events", failing_later)

    rows = _csv(client.get("/members/audit/export.csv?kind=watchlists"))

    assert [r["On"] for r in rows[:2]] == ["Liste 2", "Liste 1"]
    assert rows[-1]["When (Europe/Oslo)"].startswith("INCOMPLETE")


def test_only_admins_download_and_only_their_organisations_records(admin):
    stranger = make_member("Fjordkreditt AS", "olav", role=Member.Role.ADMIN)
    stranger.client().post("/watchlists/", {"watchlist_name": "Fjordkunder"})
    admin.client().post("/watchlists/", {"watchlist_name": "Kunder"})
    officer = member_like(admin, "ingrid", Member.Role.OFFICER)

    rows = _csv(admin.client().get("/members/audit/export.csv"))

    assert "Kunder" in [r["On"] for r in rows]
    assert not [r for r in rows if "Fjord" in r["On"] or "olav" in r["Who"]]
    assert officer.client().get("/members/audit/export.csv").status_code == 403


def _today() -> str:
    return timezone.localdate().isoformat()


def test_it_downloads_the_records_of_the_days_chosen(admin):
    from datetime import datetime

    from service.audit.models import AuditEvent

    for label, at in (("March", "2026-03-31T21:59:00+00:00"), ("April", "2026-04-15T10:00:00+00:00")):
        AuditEvent.objects.create(
            app_customer_id=admin.app_customer.uuid, action_key="watchlist.create", object_type="watchlist",
            object_label=label, created_timestamp=datetime.fromisoformat(at),
        )

    response = admin.client().get("/members/audit/export.csv", {"kind": "watchlists", "created_from": "01.04.2026", "created_to": "30.04.2026"})
    wrong_way = admin.client().get("/members/audit/export.csv", {"created_from": "30.04.2026", "created_to": "01.04.2026"})

    assert [r["On"] for r in _csv(response)] == ["April"]
    assert f'filename="audit-log-nordbank-asa-watchlists-2026-04-01-2026-04-30-{_today()}.csv"' in response["Content-Disposition"]
    assert wrong_way.status_code == 302 and wrong_way["Location"].startswith("/members/audit/?created_from=30.04.2026")
