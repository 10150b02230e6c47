"""The joined letters' rule in a search, for names whose letters only Python joins: Han and
Hangul parts are joined by their forms as written (`score.joined_score`), not by the
romanised texts the compiled scorer has. A small index: fast enough for the mutation run."""

from service.screening.matching import ListEntity, ListName, MatchIndex, PersonQuery

LISTED = [
    ListEntity("kim", "Person", [ListName("김 정은 박 철수")]),
    ListEntity("kim-long", "Person", [ListName("김 정은 박철수영")]),
    ListEntity("cnpc", "Organization", [ListName("中国 石油 天然气 集团 公司")]),
]


def searched(index: MatchIndex, query: str, schema: str = "Person") -> dict[str, tuple]:
    """Each entity found: its score, aligned parts and the parts left over on either side."""
    return {
        match.entity_id: (match.score, [(part.query, part.listed, part.similarity, part.reason)
                                        for part in match.explanation.aligned],
                          match.explanation.unmatched_query_parts, match.explanation.unmatched_list_parts)
        for match in index.search(PersonQuery(query, schema=schema), threshold=0.0)
    }


def test_it_scores_han_and_hangul_names_split_elsewhere_by_their_joined_letters():
    index = MatchIndex.build(LISTED)
    # The same letters split elsewhere: the aligned parts alone would give 1/3, the letters joined 0.95.
    assert searched(index, "김 정은 박철 수")["kim"] == (
        0.95, [("김", "김", 1.0, "exact"), ("정은", "정은", 1.0, "exact")], ["박철", "수"], ["박", "철수"])
    assert searched(index, "中国 石油 天然 气集团 公司", "Organization")["cnpc"] == (
        0.95, [("中国", "中国", 1.0, "exact"), ("石油", "石油", 1.0, "exact"), ("公司", "公司", 1.0, "exact")],
        ["天然", "气集团"], ["天然气", "集团"])
    # Split into fewer parts: the same letters, and from nine letters one written differently.
    assert searched(index, "中国 石油 天然 气集团公司", "Organization")["cnpc"][0] == 0.95
    assert searched(index, "中国 石油 天然 气集团公私", "Organization")["cnpc"][0] == 0.9


def test_it_keeps_the_aligned_score_of_short_han_and_hangul_names_a_letter_apart():
    index = MatchIndex.build(LISTED)
    # Seven letters joined, one different: too short for a typo, another name.
    assert searched(index, "김 정은 박철수 엉")["kim-long"] == (
        0.4651, [("김", "김", 1.0, "exact"), ("정은", "정은", 1.0, "exact")], ["박철수", "엉"], ["박철수영"])
