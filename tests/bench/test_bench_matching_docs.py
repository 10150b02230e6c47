"""`bench/bench_matching.py --write-docs`: the results table of docs/matching.md is the benchmark's
own output, replaced between two markers, so the doc cannot drift from the runs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_matching", REPO / "bench" / "bench_matching.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def results(bench):
    return [
        bench.Result("name_bench F1 at the default threshold", "0.913 (P 0.929, R 0.896)", ">= 0.90", True),
        bench.Result("pairs/s vs logic-v2 (ours re-normalising)", "7.3x", "reported", None),
        bench.Result("persons/s against 1,000 names (one core, CPU)", "2,100", ">= 3,000", False),
    ]


@pytest.fixture
def run(bench):
    return bench.Run("2026-11-26 12:00 UTC", "abc1234", 1_000, 50, 10, 2, 3.25, 4.5)


def test_it_captions_the_table_with_the_run_and_the_machine_load(bench, results, run):
    table = bench.results_table(results, run)

    assert "2026-11-26 12:00 UTC" in table and "commit abc1234:" in table
    assert "1,000 list names" in table and "50 measured queries" in table and "10 of them" in table
    assert "2 cores, one-minute load average 3.2 at the start and 4.5 at the end" in table
    assert "| name_bench F1 at the default threshold | 0.913 (P 0.929, R 0.896) | ≥ 0.90 | PASS |" in table
    assert "| pairs/s vs logic-v2 (ours re-normalising) | 7.3x |  | reported |" in table
    assert "| persons/s against 1,000 names (one core, CPU) | 2,100 | ≥ 3,000 | MISS |" in table


def test_it_replaces_only_the_table_between_the_markers(bench, results, run, tmp_path):
    doc = tmp_path / "matching.md"
    before = "# Engine\n\nDesign text.\n\n## Results\n\n"
    after = "\n\nKnown limits follow.\n"
    doc.write_text(f"{before}{bench.DOC_BEGIN}\nold figures\n| a | b |\n{bench.DOC_END}{after}", encoding="utf-8")

    table = bench.results_table(results, run)
    bench.write_results_table(doc, table)
    written = doc.read_text(encoding="utf-8")

    assert written == f"{before}{bench.DOC_BEGIN}\n{table}\n{bench.DOC_END}{after}"
    assert "old figures" not in written
    bench.write_results_table(doc, table)  # a second run replaces its own table, nothing piles up
    assert doc.read_text(encoding="utf-8") == written


@pytest.mark.parametrize("body", ["no markers at all\n", "<!-- bench_matching:end -->\n<!-- bench_matching:begin -->\n",
                                  "<!-- bench_matching:begin -->\n<!-- bench_matching:begin -->\n"
                                  "<!-- bench_matching:end -->\n"])
def test_it_refuses_a_doc_without_one_pair_of_markers_in_order(bench, results, run, tmp_path, body):
    doc = tmp_path / "matching.md"
    doc.write_text(body, encoding="utf-8")

    with pytest.raises(ValueError, match="bench_matching:begin"):
        bench.write_results_table(doc, bench.results_table(results, run))
    assert doc.read_text(encoding="utf-8") == body


def test_the_matching_doc_holds_one_table_in_the_benchmarks_own_shape(bench, results, run):
    text = (REPO / "docs" / "matching.md").read_text(encoding="utf-8")
    assert text.count(bench.DOC_BEGIN) == 1 and text.count(bench.DOC_END) == 1
    block = text.split(bench.DOC_BEGIN)[1].split(bench.DOC_END)[0]
    written_header = bench.results_table(results, run).splitlines()[2:4]
    assert block.strip().splitlines()[2:4] == written_header
