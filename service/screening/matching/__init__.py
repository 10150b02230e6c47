"""Name matching for sanction and PEP screening; plain Python, no Django.

    from service.screening.matching import MatchIndex, PersonQuery, DEFAULT_THRESHOLD

    index = MatchIndex.build(entities)          # once per list version
    matches = index.search(PersonQuery("Vladimir Putin", birth_date="1952-10-07"))

`DEFAULT_THRESHOLD` is the score from which a result is reported as a possible
match. It was chosen on the labelled name_bench pairs, where F1 is flat between
0.72 and 0.76 (see docs/matching.md); every call accepts its own threshold.
"""

from .index import INDEX_FORMAT, MatchIndex, warm_up
from .normalize import NormalizedName, normalize_name
from .score import DEFAULT_THRESHOLD, score_names, score_pair
from .types import AlignedPart, Explanation, ListEntity, ListName, Match, PersonQuery

__all__ = [
    "DEFAULT_THRESHOLD",
    "INDEX_FORMAT",
    "AlignedPart",
    "Explanation",
    "ListEntity",
    "ListName",
    "Match",
    "MatchIndex",
    "NormalizedName",
    "PersonQuery",
    "normalize_name",
    "score_names",
    "score_pair",
    "warm_up",
]
