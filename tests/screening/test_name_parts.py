"""screening.name_parts: the words of a name marked from the engine's explanation, as written."""

from portal.service.explanation import Explanation
from screening.name_parts import name_parts


def _explanation(**fields) -> Explanation:
    return Explanation.from_json({
        "query_name": "Mohammed Al-Sayed Sørensen", "matched_name": "MUHAMMAD AL SAYED",
        "aligned": [{"query": "mohammed", "listed": "muhammad", "similarity": 0.9, "reason": "variant"},
                    {"query": "al", "listed": "al", "similarity": 1.0, "reason": "exact"},
                    {"query": "sayed", "listed": "sayed", "similarity": 1.0, "reason": "exact"}],
        "unmatched_query_parts": ["sorensen"], **fields,
    })


def test_it_marks_same_near_and_unmatched_words_as_written():
    parts = [(p.text, p.kind) for p in name_parts("Mohammed Al-Sayed Sørensen", _explanation(), side="query")]

    assert parts == [("Mohammed", "near"), (" ", ""), ("Al", "match"), ("-", ""), ("Sayed", "match"), (" ", ""),
                     ("Sørensen", "unmatched")]


def test_it_says_why_a_near_spelling_counts_in_norwegian_numbers():
    [mohammed] = [p for p in name_parts("MUHAMMAD AL SAYED", _explanation(), side="listed") if p.kind == "near"]

    assert mohammed.text == "MUHAMMAD"
    assert mohammed.title == "Like “mohammed” (a known variant, similarity 0,90)"
