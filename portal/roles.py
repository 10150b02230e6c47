"""Which API roles a dashboard role grants: the one place that decides it.

The dashboard calls the API as the person who is logged in, so each call sends
in `Nk-Role-Keys` only the roles that person's dashboard role grants, and of
those only the ones the organisation's API user holds:

- viewer: aml only, to read screening cases and states (the dashboard lets a viewer change
  nothing; no payment remarks, no national ids);
- officer: aml (screening), credit_check (payment remarks, credit reports),
  person_national_identification (national ids);
- admin: every role the organisation has.
"""

from __future__ import annotations

from portal.models import Member

EVERY_ROLE = None  # the admin's grant: whatever the organisation holds

GRANTED_API_ROLES: dict[str, frozenset[str] | None] = {
    Member.Role.VIEWER: frozenset({"aml"}),
    Member.Role.OFFICER: frozenset({"aml", "credit_check", "person_national_identification"}),
    Member.Role.ADMIN: EVERY_ROLE,
}

# What each API role covers (spec §5.3), for the members page.
API_ROLE_DESCRIPTIONS = {
    "aml": "PEP and sanction screening",
    "credit_check": "Payment remarks and credit reports",
    "norwegian_mortgaged_movable_property_data": "Mortgaged movable property",
    "person_national_identification": "National identification numbers",
    "norwegian_property_data": "Property data",
    "network_risk_score": "Network risk score",
    "bank_account_prevalidation": "Bank account register check",
    "adverse_event": "Adverse media",
    "fraud_risk_score": "Fraud risk score",
    "app_admin": "Organisation admin: members, API users, audit log",
}


def api_role_keys_for(*, dashboard_role: str, organisation_role_keys: list[str]) -> list[str]:
    """The role keys sent for a member of this dashboard role, in the organisation's order.

    An unknown dashboard role grants nothing (closed, not open)."""
    granted = GRANTED_API_ROLES.get(dashboard_role, frozenset())
    return [key for key in organisation_role_keys if granted is EVERY_ROLE or key in granted]


def member_api_role_keys(member: Member) -> list[str]:
    return api_role_keys_for(dashboard_role=member.role, organisation_role_keys=member.organisation.role_keys)


def abilities_for(member: Member) -> list[str]:
    """What the member can do on the pages that exist today, in words for the navigation and home page.

    Follows the API roles actually sent for the member (an officer of an organisation without
    credit_check reads no payment remarks), and never names what the member cannot see."""
    keys = set(member_api_role_keys(member))
    remarks = "credit_check" in keys
    abilities = [
        "Read companies: register data, credit score, flags, accounts and sector benchmarks"
        + (", with payment remarks and their creditors" if remarks else ""),
        "Manage watchlists",
        "Order company profiles and ownership reports" + (", and credit reports" if remarks else ""),
    ]
    if "aml" in keys:
        abilities.append("Read screening cases and their reports" + (", review and assign them" if member.can_review else ""))
        abilities.append("Check a name or a file of names against the PEP and sanction lists" if member.can_review
                         else "Read the results of name checks and screened files")
    if member.role == Member.Role.ADMIN:
        if "aml" in keys:
            abilities.append("Set up screening and approve monitorings")
        abilities.append("Invite and deactivate members, manage API users and read the audit log")
        abilities.append("See the technical details of the health checks")
    return abilities
