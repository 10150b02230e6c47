"""Screened names as the engine normalised them, stored once, so that a list version's delta
run can select the few entities whose name may find anything in the delta (`name_parts.py`)
without reading and normalising every monitored name again.

A name is stored per kind code (`matching.index.query_kind_code`: person or organisation
names are normalised differently) with its distinct normalised parts; a part is stored once,
its key being the whole `NameToken` (`name_parts.token_key`), so it can be looked up again
in any index exactly as the search would look it up.
"""

from django.db import models


class ScreeningNamePart(models.Model):
    key = models.TextField(unique=True, help_text="kind code and NameToken as JSON (name_parts.token_key)")


class ScreeningName(models.Model):
    kind_code = models.CharField(max_length=1)
    name = models.TextField(help_text="the name exactly as searched")
    parts = models.ManyToManyField(ScreeningNamePart, related_name="names")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind_code", "name"], name="screening_name_unique")]
