"""An audit record's fields in words: one label for every key the service's audit calls write
(tests/portal/test_audit_fields.py walks the service's calls and fails on a key without one), its
values in words (Yes/No, days and numbers in Norwegian format, national ids masked), for the audit
page and its CSV alike."""

from __future__ import annotations

from portal.formatting import DASH, key_words, recorded_text
from vakt_format.national_ids import national_ids_masked_in

LABELS: dict[str, str] = {
    # members and API users
    "email": "Email",
    "full_name": "Name",
    "active_flag": "Active",
    "role_keys": "API roles",
    "credentials_version": "Secrets version",
    "one_time_password_issued_flag": "New one-time password",
    # screening setup
    "auto_approve_monitoring_flag": "Monitor suggestions without approval",
    "screening_config_system_suggestion_setting_key": "Suggested for monitoring",
    "subscribe_to_email_notifications_flag": "Email notifications",
    "four_eyes_review_flag": "Four-eyes review",
    "records_retention_years": "Retention period",
    "screening_list_category_key": "Screening list",
    "screening_list_category_name": "Screening list",
    "watchlist_uuid": "Watchlist",
    "watchlist_name": "Watchlist",
    # cases
    "case_status_key": "Case status",
    "review_status_key": "Review",
    "entity_match_decision_type_key": "Match decision",
    "pep_confirmed_flag": "PEP confirmed",
    "comment": "Comment",
    "four_eyes": "Four eyes",
    "batch_case_count": "Cases reviewed together",
    "assignee_email": "Assigned to",
    # monitorings
    "approved_flag": "Monitored",
    "decision_comment": "Comment",
    "decision_origin_key": "Decided by",
    "removed_flag": "Removed",
    "removal_reason": "Why removed",
    # record holds and deleted records
    "entity_key": "Held",
    "entity_uuid": "Held entity",
    "reason": "Why held",
    "release_request_reason": "Why release",
    "release_requested_by": "Release asked for by",
    "released_flag": "Released",
    "release_reason": "Why released",
    "keep_reason": "Why kept",
    "deletion_reason_key": "Deleted because",
    "monitoring_entity_key": "Records of",
    "relationship_ended": "Customer relationship ended",
    "retention_years": "Retention period",
    "retention_cutoff": "Ended before",
    "monitoring_count": "Monitorings deleted",
    "case_count": "Cases deleted",
    "open_case_count": "Of them open",
    "records_hold_count": "Holds deleted",
    "audit_records_redacted": "Audit records emptied",
    # batches
    "file_name": "File",
    "rows_total": "Rows",
    "screening_batch_status_key": "Status",
    # customer persons
    "birth_date": "Birth date",
    "gender": "Gender",
    "nationalities": "Nationalities",
    "customer_reference": "Customer reference",
    "merged_into_customer_person_uuid": "Merged into the record",
    "merged_into_full_name": "Merged into the record of",
    "national_identification_schema": "National id of",
    "postal_place": "Place",
    "country_code_two": "Country",
    # watchlists
    "company_count": "Companies",
    "company_uuids": "Company ids",
}

# Ids a reader cannot read: not shown as a change (the record links to the object instead).
NOT_SHOWN = {"watchlist_uuid", "entity_uuid", "company_uuids", "merged_into_customer_person_uuid"}
# A key shown only when the record lacks its name (records made before names were recorded).
NAMED_BY = {"screening_list_category_key": "screening_list_category_name"}

ENTITY_WORDS = {"customer_person": "Customer person", "company": "Company", "person": "Person in the register"}
YEAR_KEYS = {"records_retention_years", "retention_years"}
NATIONAL_ID_SCHEMAS = {"NO": "Norway", "SE": "Sweden", "DK": "Denmark"}


def field_label(key: str) -> str:
    return LABELS.get(key) or key_words(key)


def field_value(key: str, value) -> str:
    if value is None or value == "" or value == []:
        return DASH
    if key in YEAR_KEYS and isinstance(value, int):
        return f"{value} {'year' if value == 1 else 'years'}"
    if key in ("entity_key", "monitoring_entity_key"):
        return ENTITY_WORDS.get(value, key_words(value))
    if key == "national_identification_schema":
        return NATIONAL_ID_SCHEMAS.get(value, value)
    if key.endswith("_key") and isinstance(value, str):
        return key_words(value)
    text = recorded_text(value)
    return national_ids_masked_in(text) if isinstance(value, str) else text


def audit_changes(event) -> list[dict]:
    """The fields a record names, in words, leaving out those an update kept as they were (none once
    redacted: their values went with the data they were about)."""
    if event.redacted_at:
        return []
    before, after = event.before or {}, event.after or {}
    keys = [key for key in dict.fromkeys([*before, *after]) if key not in NOT_SHOWN]
    keys = [key for key in keys if NAMED_BY.get(key) not in before and NAMED_BY.get(key) not in after]
    changed = [key for key in keys if not (event.before and event.after and before.get(key) == after.get(key))]
    return [
        {
            "key": key,
            "label": field_label(key),
            "before": None if before.get(key) is None else field_value(key, before[key]),
            "after": None if after.get(key) is None else field_value(key, after[key]),
        }
        for key in changed
    ]
