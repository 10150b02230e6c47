"""Cached screening state is forgotten per organisation, and only for that organisation."""

from types import SimpleNamespace
from uuid import uuid4

from django.core.cache import cache

from screening.freshness import cache_key, case_counts, forget


def test_it_forgets_an_organisations_values_and_keeps_the_others():
    mine, theirs = uuid4(), uuid4()
    cache.set(cache_key(organisation_uuid=mine, name="case-counts"), {"pending": 3})
    cache.set(cache_key(organisation_uuid=theirs, name="case-counts"), {"pending": 5})

    forget(organisation_uuid=mine)

    assert cache.get(cache_key(organisation_uuid=mine, name="case-counts")) is None
    assert cache.get(cache_key(organisation_uuid=theirs, name="case-counts")) == {"pending": 5}


def test_it_keeps_a_key_stable_until_forgotten():
    organisation = uuid4()
    first = cache_key(organisation_uuid=organisation, name="related")

    assert cache_key(organisation_uuid=organisation, name="related") == first
    forget(organisation_uuid=organisation)
    assert cache_key(organisation_uuid=organisation, name="related") != first


class _Counting:
    """A stand-in client: counts fetches; `during` runs in the middle of one (another member acting)."""

    def __init__(self, during=lambda: None) -> None:
        self.fetches = 0
        self.during = during
        self.screening = self

    def current_config(self):
        self.fetches += 1
        self.during()
        return None  # no config yet: nothing more to read


def test_it_reads_the_cached_value_else_fetches_and_caches_it():
    organisation = SimpleNamespace(app_customer_uuid=uuid4())
    client = _Counting()

    first = case_counts(organisation=organisation, client=client)
    again = case_counts(organisation=organisation, client=client)
    forget(organisation_uuid=organisation.app_customer_uuid)
    after_forget = case_counts(organisation=organisation, client=client)
    refreshed = case_counts(organisation=organisation, client=client, refresh=True)

    assert client.fetches == 3
    assert again == first and after_forget.refreshed_at > first.refreshed_at
    assert refreshed.refreshed_at > after_forget.refreshed_at


def test_a_fetch_that_overlaps_a_forget_is_never_read_afterwards():
    organisation = SimpleNamespace(app_customer_uuid=uuid4())
    client = _Counting(during=lambda: forget(organisation_uuid=organisation.app_customer_uuid))

    case_counts(organisation=organisation, client=client)  # a member acted while it was fetched
    client.during = lambda: None
    case_counts(organisation=organisation, client=client)

    assert client.fetches == 2  # the overlapping value landed in the forgotten generation


def test_pages_say_when_the_state_was_fetched_in_words():
    from datetime import datetime, timedelta, timezone

    from screening.views_related import updated_words

    now = datetime(2026, 11, 26, 10, 0, tzinfo=timezone.utc)
    said = [updated_words(now - timedelta(seconds=s), now) for s in (5, 60, 150, 3600, 7300, 86400 * 3)]

    assert said == [
        "Updated just now", "Updated 1 minute ago", "Updated 2 minutes ago",
        "Updated 1 hour ago", "Updated 2 hours ago", "Updated 3 days ago",
    ]
    assert updated_words(None) == "Not updated yet"
