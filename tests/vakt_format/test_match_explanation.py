"""vakt_format.match_explanation: the engine's explanation in the words of the case page and both PDFs."""

from vakt_format.match_explanation import adjustment_text, aligned_rows, explanation_facts, explanation_line

EXPLANATION = {
    "query_name": "dragunov ivan sergeevich", "matched_name": "IVAN SERGEYEVICH DRAGUNOV", "matched_name_quality": "weak",
    "name_score": 0.9712, "birth_date_adjustment": 0.05, "nationality_adjustment": -0.04, "gender_adjustment": 0.0,
    "final": 0.98, "notes": ["same birth date"], "unmatched_query_parts": [], "unmatched_list_parts": ["bin"],
    "aligned": [{"query": "dragunov", "listed": "dragunov", "similarity": 1.0, "reason": "exact"},
                {"query": "sergeevich", "listed": "sergeyevich", "similarity": 0.91, "reason": "typo"}],
}


def test_an_adjustment_says_whether_it_agrees_as_the_case_page_does():
    assert [adjustment_text(v) for v in (0.05, -0.04, 0.0, None)] == ["agrees +0,05", "differs -0,04", "no effect", "–"]


def test_the_case_report_gets_every_fact_and_a_row_per_aligned_part():
    assert explanation_facts(EXPLANATION) == [
        ("Compared names", "dragunov ivan sergeevich  vs  IVAN SERGEYEVICH DRAGUNOV (an alias of low quality)"),
        ("Name similarity", "0,97"), ("Birth date", "agrees +0,05"), ("Nationality", "differs -0,04"),
        ("Gender", "no effect"), ("Only in the listed name", "bin"), ("Notes", "same birth date"),
    ]
    assert aligned_rows(EXPLANATION) == [("dragunov", "dragunov", "1,00", "the same"),
                                         ("sergeevich", "sergeyevich", "0,91", "a typo apart")]


def test_a_hit_among_many_gets_the_compact_facts_on_one_line():
    assert explanation_line(EXPLANATION) == (
        "Name similarity: 0,97 · Aligned name parts: dragunov = dragunov, sergeevich ~ sergeyevich (a typo apart, 0,91)"
        " · Birth date: agrees +0,05 · Nationality: differs -0,04 · Only in the listed name: bin"
        " · Notes: same birth date; the listed name is an alias of low quality"
    )
    assert "Birth date" not in explanation_line(EXPLANATION, person=False)  # a company has none to agree


def test_an_adjustments_sign_is_said_by_one_rule_on_every_page():
    from vakt_format.match_explanation import adjustment_text, adjustment_verdict

    assert [adjustment_verdict(v) for v in (0.05, -0.04, 0.0, None)] == ["agrees", "differs", "", ""]
    assert [adjustment_text(v) for v in (0.05, -0.04, 0.0)] == ["agrees +0,05", "differs -0,04", "no effect"]
