"""Cached screening state is forgotten per organisation, and only for that organisation."""

from uuid import uuid4

from django.core.cache import cache

from screening.freshness import cache_key, forget


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
