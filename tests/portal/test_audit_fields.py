"""An audit record's fields in words (portal.audit_fields): every key the service's audit calls write
has a label, values read as words, and a national id typed into a reason is masked on the page and
in the CSV."""

from __future__ import annotations

import ast
import csv
import html
import io
import re
from pathlib import Path

from portal.audit_fields import LABELS, NOT_SHOWN
from portal.models import Member
from tests.portal.conftest import make_member

ROOT = Path(__file__).resolve().parents[2]


def _audited_keys() -> dict[str, str]:
    """Key -> where: the dict keys in the service's audit calls (`audit_record(`, `_audit…(`), in the
    state helpers they record (`…_state`, `_audit…`), and in the `before`/`after` dicts they pass."""
    keys: dict[str, str] = {}
    for path in sorted((ROOT / "service").rglob("*.py")):
        source = path.read_text()
        if "audit_record(" not in source or "migrations" in path.parts or path.parent.name == "audit":
            continue

        def add(node, where=path.relative_to(ROOT)):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Dict):
                    for key in sub.keys:
                        if isinstance(key, ast.Constant) and isinstance(key.value, str):
                            keys.setdefault(key.value, f"{where}:{key.lineno}")

        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name == "audit_record" or name.startswith("_audit") or name.endswith("_audit"):
                    for arg in [*node.args, *(k.value for k in node.keywords)]:
                        add(arg)
            elif isinstance(node, ast.FunctionDef) and (
                node.name.endswith("_state") or node.name.startswith("_audit") or node.name.endswith("_audit")
            ):
                add(node)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id in ("before", "after", "state"):
                        add(node.value)
                    if (isinstance(target, ast.Subscript) and getattr(target.value, "id", "") in ("before", "after")
                            and isinstance(target.slice, ast.Constant)):
                        keys.setdefault(target.slice.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return keys


def test_every_key_the_service_audits_has_a_label():
    keys = _audited_keys()
    assert {"records_retention_years", "auto_approve_monitoring_flag", "watchlist_uuid", "keep_reason"} <= set(keys)

    missing = {key: where for key, where in keys.items() if key not in LABELS}
    assert missing == {}, "give these audit keys a label in portal/audit_fields.py LABELS"
    assert NOT_SHOWN <= set(LABELS)


def _record(admin, action: str, object_type: str, before=None, after=None, label: str = "") -> None:
    from service.audit.models import AuditEvent

    AuditEvent.objects.create(app_customer_id=admin.app_customer.uuid, action_key=action, object_type=object_type,
                              object_label=label, before=before, after=after)


def _changes(admin) -> list[str]:
    page = html.unescape(admin.client().get("/members/audit/").content.decode())
    cells = re.findall(r'<td class="stack-title">(.*?)</td>.*?<td [^>]*data-label="Change">(.*?)</td>', page, re.DOTALL)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", what + " | " + change)).strip() for what, change in cells]


def test_it_shows_keys_and_values_in_words(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    _record(admin, "screening_config.update", "screening_config",
            {"auto_approve_monitoring_flag": False, "records_retention_years": 10},
            {"auto_approve_monitoring_flag": True, "records_retention_years": 5})
    _record(admin, "screening_config.watchlist_attach", "screening_config", None,
            {"watchlist_uuid": "3f1c6e4e-2f8e-4b8e-9a51-0c3f2a1d9b77", "watchlist_name": "Kunder"})
    _record(admin, "screening_config.category_select", "screening_config", None,
            {"screening_list_category_key": "eu_sanctions", "screening_list_category_name": "EU sanctions"})
    _record(admin, "records_hold.place", "records_hold", None,
            {"entity_key": "customer_person", "entity_uuid": "3f1c6e4e-2f8e-4b8e-9a51-0c3f2a1d9b77", "reason": "x"})

    changes = _changes(admin)
    hold, category, watchlist, setup = (next(c for c in changes if c.startswith(what)) for what in (
        "Placed a hold", "Selected a screening list", "Attached a watchlist", "Changed the screening setup"))

    assert setup.startswith("Changed the screening setup |")
    assert "Monitor suggestions without approval: No → Yes" in setup and "Retention period: 10 years → 5 years" in setup
    assert watchlist == "Attached a watchlist to screening | Watchlist: Kunder"  # not its uuid
    assert category == "Selected a screening list | Screening list: EU sanctions"
    assert "Held: Customer person" in hold and "3f1c6e4e" not in hold and "_" not in hold


def test_a_national_id_typed_into_a_reason_is_masked_on_the_page_and_in_the_csv(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    _record(admin, "records_hold.place", "records_hold", None,
            {"entity_key": "customer_person", "reason": "Police request about 15108695088 (and 151086-95088)."})

    change = next(c for c in _changes(admin) if c.startswith("Placed a hold"))
    response = admin.client().get("/members/audit/export.csv")
    rows = [row for row in csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig")))
            if row["Action key"] == "records_hold.place"]

    assert "Why held: Police request about 151086***** (and 151086*****)." in change
    assert "95088" not in rows[0]["Change"] and "151086*****" in rows[0]["Change"]
    assert "95088" not in rows[0]["After (JSON)"] and "151086*****" in rows[0]["After (JSON)"]


def test_the_service_never_records_a_national_ids_number():
    """Its national id actions record the country's schema only; a number reaches the log only if a
    member types one into a reason or a comment (masked when shown, above)."""
    source = (ROOT / "service/screening/person_services.py").read_text()
    calls = re.findall(r'_audit\([^)]*national_id_(?:add|remove)"[^)]*\)', source, re.DOTALL)
    assert len(calls) == 2 and all("number" not in call and "compact" not in call for call in calls)
