"""Mutation testing of the security- and accuracy-critical modules (README, Reliability).

    python scripts/mutation.py --list                 # the targets and their tests
    python scripts/mutation.py auth-credentials facts # run some (default: all), one after the other
    python scripts/mutation.py --show facts           # the figures and surviving mutants of the last run
    python scripts/mutation.py score --mutants 'service.screening.matching.score.x_final_score*'
    python scripts/mutation.py score --fresh --mutants 'service.screening.matching.score.x__score_rules*'

Each target is one module and the tests that should catch a change to it. Its run
happens in var/mutation/<target>/ (a pyproject.toml with the target's [tool.mutmut]
section, links to the repository's folders), so targets do not share state and the
working tree is never modified: mutmut 3 writes the mutated copies under
var/mutation/<target>/mutants/ and runs the target's tests there, forking once per
mutant from a process that has already imported everything. Each mutant's tests set up
their database again; with DATABASE_URL on PostgreSQL `--reuse-db` keeps the migrated test
database between mutants (several times faster than SQLite's in-memory one, migrated per
mutant). It runs at `nice 10` with one worker: the machine is shared. Needs the `mutation` extra
(`pip install -e .[test,mutation]`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "var" / "mutation"
# Folders the tests need beside the mutated module (Django apps, templates, settings).
SOURCE_PATHS = ["service", "portal", "companies", "watchlists", "screening", "reports", "vakt_format"]
ALSO_COPY = ["templates", "static", "manage.py", "bench"]

# target: (module, tests that should kill its mutants)
TARGETS: dict[str, tuple[str, list[str]]] = {
    "auth-credentials": (
        "service/auth/credentials.py",
        ["tests/service/auth/test_basic_auth.py", "tests/service/auth/test_token.py"],
    ),
    "auth-tokens": (
        "service/auth/tokens.py",
        ["tests/service/auth/test_token.py", "tests/service/auth/test_token_client_auth.py"],
    ),
    "auth-principal": (  # tenancy (own_app_customer) and role checks (require)
        "service/auth/principal.py",
        ["tests/service/auth/test_roles.py", "tests/service/auth/test_admin_memberships.py"],
    ),
    "facts": ("service/screening/matching/facts.py", ["tests/service/screening/matching/test_facts.py",
                                                       "tests/service/screening/matching/test_score_pair.py"]),
    "score": (
        "service/screening/matching/score.py",
        ["tests/service/screening/matching/test_score_pair.py", "tests/service/screening/matching/test_score_names.py",
         "tests/service/screening/matching/test_index_joined_letters.py"],  # `joined_score`, which only MatchIndex calls
    ),
    "sector-statistics": (
        "service/companies/sector/statistics.py",
        ["tests/service/companies/sector/test_statistics.py", "tests/service/companies/sector/test_benchmark_rules.py"],
    ),
    "datasets-filters": (
        "service/companies/datasets/filters.py",
        ["tests/service/companies/datasets/test_filters.py", "tests/service/companies/datasets/test_filter_ranges.py",
         "tests/service/companies/datasets/test_errors.py"],
    ),
    "datasets-keyset": (
        "service/companies/datasets/keyset.py",
        ["tests/service/companies/datasets/test_keyset_pagination.py"],
    ),
    "portal-errors": ("portal/service/errors.py", ["tests/portal/service/test_error_statuses.py"]),
    "import-job": (  # a customer person import job: once, all or nothing, failing with the import's errors
        "service/screening/person_import_job.py",
        ["tests/service/screening/persons/test_customer_person_import_job.py",
         "tests/service/screening/persons/test_customer_person_import_job_concurrent.py",
         "tests/service/screening/test_config_busy.py"],  # a job waits out the config's lock
    ),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("targets", nargs="*", help="targets to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the targets and their tests")
    parser.add_argument("--show", action="store_true", help="print the surviving mutants of the last run")
    parser.add_argument(
        "--mutants", nargs="+", metavar="NAME", default=[],
        help="run only these mutants (names or globs from --show), e.g. to check that new tests kill survivors",
    )
    parser.add_argument(
        "--fresh", action="store_true",
        help="run each surviving --mutants again in a new pytest process with the mutant active from the import on"
             " (for functions that build module-level tables at import, which a forked run cannot reach)",
    )
    args = parser.parse_args()
    unknown = [name for name in args.targets if name not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s) {', '.join(unknown)}; known: {', '.join(TARGETS)}")
    if args.list:
        for name, (module, tests) in TARGETS.items():
            print(f"{name}: {module}\n    " + "\n    ".join(tests))
        return 0
    summary = {}
    for name in args.targets or list(TARGETS):
        summary[name] = show(name) if args.show else run(name, mutants=args.mutants)
        if args.fresh and not args.show:
            summary[name]["fresh"] = fresh_run(name, mutants=summary[name]["survived"])
    print(json.dumps(summary, indent=2))
    return 0


def workdir_prepare(name: str) -> Path:
    module, tests = TARGETS[name]
    work = WORK / name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for entry in [*SOURCE_PATHS, *ALSO_COPY, "tests"]:
        (work / entry).symlink_to(ROOT / entry)
    (work / "shared").symlink_to((ROOT.parent / "shared").resolve())  # tests find ../shared from mutants/
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pytest_options = project["tool"]["pytest"]["ini_options"]
    (work / "pyproject.toml").write_text(
        "[tool.pytest.ini_options]\n"
        f"DJANGO_SETTINGS_MODULE = {json.dumps(pytest_options['DJANGO_SETTINGS_MODULE'])}\n"
        f"python_files = {json.dumps(pytest_options['python_files'])}\n"
        'addopts = "-p no:cacheprovider"\n\n'
        "[tool.mutmut]\n"
        f"source_paths = {json.dumps(SOURCE_PATHS)}\n"
        f"only_mutate = {json.dumps([module])}\n"
        f"also_copy = {json.dumps(ALSO_COPY)}\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
        'pytest_add_cli_args = ["-q", "--reuse-db"]\n'
        "use_git_change_detection = false\n"
    )
    return work


def run(name: str, *, mutants: list[str] = ()) -> dict:
    work = workdir_prepare(name)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    with (work / "mutmut-run.log").open("w") as log:  # mutmut's progress display, kept out of the summary
        subprocess.run(
            ["nice", "-n", "10", sys.executable, "-m", "mutmut", "run", "--max-children", "1", *mutants],
            cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    return show(name)


def fresh_run(name: str, *, mutants: list[str]) -> dict[str, str]:
    """mutmut forks each mutant's run from a process that imported the module with no mutant
    active, so a mutant of a function called at import (a table of rules built once) never takes
    effect there and survives by construction. Here each runs the target's tests in a new process
    (15 to 60 s each, by load) with MUTANT_UNDER_TEST set before the import; killed when a test fails or
    the module fails to import."""
    work = WORK / name
    tests = TARGETS[name][1]
    outcome = {}
    for mutant in mutants:
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "MUTANT_UNDER_TEST": mutant}
        result = subprocess.run(
            ["nice", "-n", "10", sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "--reuse-db",
             *tests],
            cwd=work / "mutants", env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        # 1: a test failed; 2 or 4: the mutated module failed at import (a collection or conftest error).
        outcome[mutant] = "killed" if result.returncode in (1, 2, 4) else f"survived (pytest exit {result.returncode})"
    return outcome


def show(name: str) -> dict:
    """Counts by status and the surviving mutants' names (from `mutmut results --all true`)."""
    work = WORK / name
    listing = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=work, capture_output=True, text=True,
    ).stdout
    statuses: dict[str, list[str]] = {}
    for line in listing.splitlines():
        match = re.match(r"\s*(\S+): (.+)$", line)
        if match:
            statuses.setdefault(match.group(2).strip(), []).append(match.group(1))
    counts = {status: len(names) for status, names in statuses.items()}
    killed = counts.get("killed", 0)
    tested = sum(counts.values()) - counts.get("skipped", 0)
    return {
        "module": TARGETS[name][0],
        "counts": counts,
        "kill_rate": round(killed / tested, 3) if tested else None,
        "survived": statuses.get("survived", []),
    }


if __name__ == "__main__":
    sys.exit(main())
