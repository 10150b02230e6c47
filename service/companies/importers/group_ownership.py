"""Corporate group ownership from `konsern-roller.csv` (influencing_tax_ident, influenced_tax_ident,
rel_type_code, percentage).

`HFOR` (hovedforetak) says the influencing company is the parent: it becomes a
`shareholder` CompanyRole of the influenced company held by the parent, with the
percentage. Both companies must already be in the register (konsern-enheter.csv is
an Enhetsregisteret file: import it with import_enheter first); a row naming an
unknown one is rejected. The role's natural key is (company, shareholder, holder
company) among open roles, so a re-import updates the share in place.

The file is the whole current picture of group ownership: an open role of this
import's kind (a company-held shareholder role without `from_date`: the file carries no
dates, while demo data and JSON-lines roles carry their own periods) that a re-import no
longer lists is closed (`to_date` today), not left current. Only after every row was
read: a file that turns out unreadable closes nothing.

After the last commit the import announces, once, the companies whose owners it changed
(`company_persons_changed`, service/companies/signals.py); an unchanged re-import announces
nothing.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

from django.db import transaction
from django.utils import timezone
from stdnum.exceptions import ValidationError
from stdnum.no import orgnr

from service.companies.importers.analysis_hook import AffectedCompanies
from service.companies.importers.reading import batched, csv_source_rows
from service.companies.importers.result import ImportResult
from service.companies.importers.values import RowRejected, decimal_value
from service.companies.models import Company, CompanyRole, CompanyRoleType
from service.companies.signals import company_persons_changed_announce

BATCH_SIZE = 5000
COLUMNS = ("influencing_tax_ident", "influenced_tax_ident", "rel_type_code", "percentage")
PARENT_COMPANY = "HFOR"


def group_ownership_import(
    *, path: Path | str, quiet: bool = True, batch_size: int = BATCH_SIZE, refresh_analysis: bool = True
) -> ImportResult:
    path = Path(path)
    result = ImportResult(source=path.name)
    affected = AffectedCompanies()  # owned and owning companies: their analysis
    owners_changed = AffectedCompanies()  # owned companies: who stands behind them
    shareholder = CompanyRoleType.objects.get(key="shareholder")
    listed: set[tuple] = set()  # (company uuid, holder uuid) of every ownership the file names
    with csv_source_rows(path, required_columns=COLUMNS, quiet=quiet) as rows:
        for batch in batched(rows, batch_size):
            links = []
            for row in batch:
                result.rows_read += 1
                try:
                    if row.problem:
                        raise RowRejected(row.problem)
                    links.append((row.line, *_ownership(row.values)))
                except RowRejected as exc:
                    result.reject(line=row.line, reason=str(exc))
            with transaction.atomic():
                listed.update(_batch_write(links, shareholder, result, affected, owners_changed))
    today = timezone.localdate()  # the day of the change: the closed roles' end and the announcement's
    result.closed = _unlisted_close(
        listed=listed, shareholder=shareholder, affected=affected, owners_changed=owners_changed, today=today
    )
    company_persons_changed_announce(changed=owners_changed, day=today)
    if refresh_analysis:
        affected.refresh()
    return result


def _ownership(values: dict[str, str]) -> tuple[str, str, Decimal]:
    relation = values["rel_type_code"].strip()
    if relation != PARENT_COMPANY:
        raise RowRejected(f"rel_type_code {relation!r} is not supported (only {PARENT_COMPANY}, the parent company)")
    parent, child = (_org_nr(values[column], column) for column in ("influencing_tax_ident", "influenced_tax_ident"))
    if parent == child:
        raise RowRejected(f"company {child} cannot own itself")
    share = decimal_value(values["percentage"], field="percentage")
    if share is None or not 0 < share <= 100:
        raise RowRejected(f"percentage must be above 0 and at most 100, got {values['percentage']!r}")
    return parent, child, share


def _org_nr(value: str, column: str) -> str:
    try:
        return orgnr.validate(value)
    except ValidationError as exc:
        raise RowRejected(f"{column} {value!r} is not a valid organisation number ({exc})") from None


def _unlisted_close(
    *,
    listed: set[tuple],
    shareholder: CompanyRoleType,
    affected: AffectedCompanies,
    owners_changed: AffectedCompanies,
    today: date,
) -> int:
    """Close the open ownerships of this import's kind that the file no longer lists."""
    stale = [
        (uuid, key)
        for uuid, *key in CompanyRole.objects.filter(
            company_role_type=shareholder, holder_company__isnull=False, from_date__isnull=True, to_date__isnull=True
        ).values_list("uuid", "company_id", "holder_company_id")
        if tuple(key) not in listed
    ]
    if stale:
        CompanyRole.objects.filter(uuid__in=[uuid for uuid, _ in stale]).update(
            to_date=today, update_timestamp=timezone.now()
        )
        affected.add(company for _, (company, _holder) in stale)
        owners_changed.add(company for _, (company, _holder) in stale)
    return len(stale)


def _batch_write(
    links: list,
    shareholder: CompanyRoleType,
    result: ImportResult,
    affected: AffectedCompanies,
    owners_changed: AffectedCompanies,
) -> set[tuple]:
    """Write a batch; the (company, holder) keys of the ownerships it names."""
    org_nrs = {org_nr for _, parent, child, _ in links for org_nr in (parent, child)}
    companies = dict(Company.objects.filter(org_nr_schema="NO", org_nr__in=org_nrs).values_list("org_nr", "uuid"))
    roles = {
        (role.company_id, role.holder_company_id): role
        for role in CompanyRole.objects.filter(
            company_role_type=shareholder,
            company_id__in=companies.values(),
            holder_company_id__in=companies.values(),
            to_date__isnull=True,
        )
    }
    named = set()
    for line, parent, child, share in links:
        missing = [org_nr for org_nr in (parent, child) if org_nr not in companies]
        if missing:
            result.reject(
                line=line,
                reason=f"company {', '.join(missing)} is not in the register (import its Enhetsregisteret row first)",
            )
            continue
        key = (companies[child], companies[parent])
        named.add(key)
        role = roles.get(key)
        if role is None:
            roles[key] = CompanyRole.objects.create(
                company_id=key[0], company_role_type=shareholder, holder_company_id=key[1], share_percentage=share
            )
            result.created += 1
        elif role.share_percentage != share:
            role.share_percentage = share
            role.save(update_fields=["share_percentage", "update_timestamp"])
            result.updated += 1
        else:
            result.unchanged += 1
            continue
        affected.add(key)
        owners_changed.add([key[0]])
    return named
