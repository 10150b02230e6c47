"""The queue's filters as they stand in the URL, and as the service reads them.

    ?q=<text>                                   (the screened or listed name contains it)
    &status=open|pending|ongoing|complete|all   (default open: pending and ongoing)
    &hit=pep|sanction                           (default any)
    &list=<list category key>                   (default any: the list the case was raised on)
    &screened=person|customer|company           (default anyone: who was screened)
    &company=<related company uuid>
    &listed_as=<case uuid>                      (the cases on the same list entry as that case)
    &assignee=me|nobody                         (default anyone)
    &sort=oldest|newest                         (default oldest: the longest waiting first)
    &page=<n>

A value the queue does not know falls back to its default, so an old or hand-edited link
still opens a queue.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from portal.service.cases import CaseFilters
from screening.templatetags.screening_cases import list_name
from vakt_format.case_status import case_status_title, case_status_word
from vakt_format.search import NAME_SEARCH_MAX, name_search_text

STATUS_CHOICES = {
    "open": ("pending", "ongoing"),
    "pending": ("pending",),
    "ongoing": ("ongoing",),
    "complete": ("complete",),
    "all": (),
}
# The tabs in the words of the status badges (vakt_format.case_status); the URL keeps the API's keys.
STATUS_LABELS = {"open": "Open", **{key: case_status_word(key) for key in ("pending", "ongoing", "complete")}, "all": "All"}
STATUS_TITLES = {"open": "New or in review: not closed yet", **{key: case_status_title(key) for key in ("pending", "ongoing", "complete")},
                 "all": "Every case"}
HIT_CHOICES = {"": "PEP or sanction", "pep": "PEP", "sanction": "Sanction"}
SCREENED_CHOICES = {"": "Anyone", "person": "Owners and board", "customer": "Customers", "company": "Companies"}  # person: everyone screened for a company
SCREENED_ENTITY_KEYS = {"person": "person", "customer": "customer_person", "company": "company"}
ASSIGNEE_CHOICES = {"": "Anyone", "me": "Me", "nobody": "Nobody"}
SORT_CHOICES = {"oldest": "Oldest first", "newest": "Newest first"}
PAGE_SIZE = 50
LIST_KEY = re.compile(r"[a-z0-9_]{1,64}")
NOBODYS_UUID = uuid.UUID(int=0)  # "assigned to me" for a login not linked to a service person: finds nothing


def list_choices(categories) -> dict[str, str]:
    """The queue's List filter: any list, then the PEP list, then the sanction lists by name; only
    lists imported at least once (a case needs an entry)."""
    imported = [c for c in categories if c.version_number is not None]
    ordered = sorted(imported, key=lambda c: (not c.is_pep, list_name(c.key)))
    return {"": "Any list", **{c.key: list_name(c.key) for c in ordered}}


@dataclass(frozen=True)
class QueueFilters:
    status: str = "open"
    hit: str = ""
    screened: str = ""
    company: uuid.UUID | None = None
    assignee: str = ""
    sort: str = "oldest"
    page: int = 1
    page_size: int = PAGE_SIZE
    name: str = ""
    listed_as: uuid.UUID | None = None
    list_key: str = ""  # a list category's key; the view drops one the service does not know

    @classmethod
    def from_query(cls, query) -> QueueFilters:
        def choice(name: str, choices, default: str) -> str:
            value = (query.get(name) or "").strip()
            return value if value in choices else default

        def uuid_or_none(name: str) -> uuid.UUID | None:
            try:
                return uuid.UUID(query.get(name, "").strip()) if query.get(name) else None
            except ValueError:
                return None
        try:
            page = max(1, min(int(query.get("page") or 1), 100_000))
        except ValueError:
            page = 1
        return cls(
            status=choice("status", STATUS_CHOICES, "open"),
            hit=choice("hit", HIT_CHOICES, ""),
            list_key=value if LIST_KEY.fullmatch(value := (query.get("list") or "").strip()) else "",
            screened=choice("screened", SCREENED_CHOICES, ""),
            company=uuid_or_none("company"),
            listed_as=uuid_or_none("listed_as"),
            assignee=choice("assignee", ASSIGNEE_CHOICES, ""),
            sort=choice("sort", SORT_CHOICES, "oldest"),
            page=page,
            page_size=PAGE_SIZE,
            name=name_search_text(query.get("q"))[:NAME_SEARCH_MAX],
        )

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.page_size  # spec rule 6: limit x pages skipped

    @property
    def sort_order(self) -> str:
        return "oldest_first" if self.sort == "oldest" else "newest_first"

    def service_filters(self, *, me: uuid.UUID | None) -> CaseFilters:
        """`me`: the member's app membership (None when the login is not linked: "me" finds nothing)."""
        return CaseFilters(
            status_keys=STATUS_CHOICES[self.status],
            pep=True if self.hit == "pep" else None,
            sanction=True if self.hit == "sanction" else None,
            related_company_uuid=self.company,
            assignee_uuid=(me or NOBODYS_UUID) if self.assignee == "me" else None,
            assigned=False if self.assignee == "nobody" else None,
            name=self.name or None,
            listed_as_case_uuid=self.listed_as,
            entity_key=SCREENED_ENTITY_KEYS.get(self.screened),
            list_key=self.list_key or None,
        )

    def status_tabs(self, counts: dict[str, int]) -> list[dict]:
        totals = {key: sum(counts.get(k, 0) for k in keys) for key, keys in STATUS_CHOICES.items()}
        totals["all"] = sum(counts.values())
        return [
            {"key": key, "label": label, "title": STATUS_TITLES[key], "count": totals[key], "url": self.query(status=key),
             "active": key == self.status}
            for key, label in STATUS_LABELS.items()
        ]

    def query(self, **changes) -> str:
        """This queue's URL query with `changes`; a changed filter starts again at page 1."""
        if any(key != "page" for key in changes):
            changes.setdefault("page", 1)
        values = replace(self, **changes)
        params = {
            "q": values.name or None,
            "status": values.status if values.status != "open" else None,
            "hit": values.hit or None,
            "list": values.list_key or None,
            "screened": values.screened or None,
            "company": str(values.company) if values.company else None,
            "listed_as": str(values.listed_as) if values.listed_as else None,
            "assignee": values.assignee or None,
            "sort": values.sort if values.sort != "oldest" else None,
            "page": values.page if values.page != 1 else None,
        }
        text = urlencode({k: v for k, v in params.items() if v is not None})
        return f"?{text}" if text else "?"

    @property
    def status_words(self) -> str:
        """The chosen tab in the empty queue's sentence: "new", "in review", "closed"; "" for all."""
        return "" if self.status == "all" else STATUS_LABELS[self.status].lower()

    def is_narrowed(self) -> bool:
        return bool(self.hit or self.list_key or self.screened or self.company or self.assignee or self.name or self.listed_as)
