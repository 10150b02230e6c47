"""GET …/audit-event serves each record's subject (extension `subject_type`, `subject_uuid`): where
its object is seen while it exists (a record hold: its subject), nothing once it is gone."""

from __future__ import annotations

from tests.service.audit.helpers import ADMIN, audit_events
from tests.service.screening.helpers import AML, config_make, config_url, customer_person_make
from tests.service.watchlists.helpers import watchlist_make, watchlist_url


def test_a_hold_is_served_with_its_subject_and_a_deleted_watchlist_with_none(api):
    config = config_make(api)
    kari = customer_person_make(api, config["uuid"])["uuid"]
    held = api.post(config_url(config["uuid"], "/records-hold"),
                    {"entity_key": "customer_person", "entity_uuid": kari, "reason": "Police request."}, roles=AML)
    assert held.status_code == 201, held.json()
    kept, gone = watchlist_make(api, "Kunder"), watchlist_make(api, "Gamle")
    assert api.delete(watchlist_url(gone)).status_code == 204

    events = {e["action_key"] + ":" + (e["object_label"] or ""): e for e in audit_events(api, roles=[*ADMIN, "aml"])}

    hold = next(e for key, e in events.items() if key.startswith("records_hold.place"))
    assert (hold["subject_type"], hold["subject_uuid"]) == ("customer_person", kari)
    assert (events["watchlist.create:Kunder"]["subject_type"], events["watchlist.create:Kunder"]["subject_uuid"]) == ("watchlist", kept)
    assert events["watchlist.create:Gamle"]["subject_uuid"] is None and events["watchlist.delete:Gamle"]["subject_type"] is None
