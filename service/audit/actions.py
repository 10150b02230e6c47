"""Every audited action: its key and what it means in words (the audit log shows the words)."""

ACTIONS: dict[str, str] = {
    "screening_case.review": "Reviewed a screening case",
    "screening_case.assign": "Assigned a screening case",
    "entity_monitoring.decide": "Decided on a monitoring",
    "entity_monitoring.remove": "Removed a monitoring",
    "screening_config.create": "Created the screening setup",
    "screening_config.update": "Changed the screening setup",
    "screening_config.category_select": "Selected a screening list",
    "screening_config.category_unselect": "Unselected a screening list",
    "screening_config.watchlist_attach": "Attached a watchlist to screening",
    "screening_config.watchlist_detach": "Detached a watchlist from screening",
    "screening_batch.create": "Screened a file or a name",
    "screening_batch.delete": "Deleted a screened file or name",
    "screening_records.delete": "Deleted the screening records of a former customer",
    "records_hold.place": "Placed a hold on screening records",
    "records_hold.release_request": "Asked for a hold on screening records to be released",
    "records_hold.release": "Released a hold on screening records",
    "records_hold.keep": "Kept a hold on screening records (turned down its release)",
    "customer_person.create": "Added a customer person",
    "customer_person.update": "Corrected a customer person's details",
    "customer_person.national_id_add": "Added a national id to a customer person",
    "customer_person.national_id_remove": "Removed a national id from a customer person",
    "customer_person.location_add": "Added an address to a customer person",
    "customer_person.location_remove": "Removed an address from a customer person",
    "customer_person.merge": "Merged a second record of a customer into the record kept",
    "watchlist.create": "Created a watchlist",
    "watchlist.rename": "Renamed a watchlist",
    "watchlist.delete": "Deleted a watchlist",
    "watchlist.companies_add": "Added companies to a watchlist",
    "watchlist.companies_remove": "Removed companies from a watchlist",
    "api_user.create": "Created an API user",
    "api_user.roles_change": "Changed an API user's roles",
    "api_user.secret_rotate": "Rotated an API user's secrets",
    "api_user.deactivate": "Deactivated an API user",
    "app_membership.invite": "Invited a member",
    "app_membership.deactivate": "Deactivated a member",
    "app_membership.reactivate": "Reactivated a member",
    "app_membership.password_reset": "Gave a member a new one-time password",
}

# The roles a record's reader needs besides app_admin, by the object acted on: cases, monitorings,
# the screening setup and customer persons are screening data, read elsewhere only with `aml`; that a
# person got a national id, and its schema, only with `person_national_identification` as well.
SCREENING_OBJECT_TYPES = (
    "screening_case", "entity_monitoring", "screening_config", "screening_batch", "customer_person", "screening_records",
    "records_hold",
)
ACTION_ROLES: dict[str, frozenset[str]] = {
    key: frozenset({"aml"}) for key in ACTIONS if key.partition(".")[0] in SCREENING_OBJECT_TYPES
} | {key: frozenset({"aml", "person_national_identification"}) for key in ("customer_person.national_id_add", "customer_person.national_id_remove")}
