"""The README's API quickstart, run as written against a live server, so it cannot rot.

The fenced `sh` blocks between `<!-- quickstart:begin -->` and `<!-- quickstart:end -->`
run in order in one bash (`set -euo pipefail`); the first block's placeholders get
this test's organisation and credentials, `VAKT` the live server's URL.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from service.auth.services import api_user_create, app_customer_create
from service.companies.analysis import analysis_refresh
from tests.conftest import ALL_ROLES
from tests.reports.helpers import report_types_seed
from tests.service.companies.factories import accounts_make, collection_case_make, company_make

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCK = re.compile(r"```sh\n(.*?)```", re.S)


def quickstart_blocks() -> list[str]:
    text = README.read_text()
    section = text.split("<!-- quickstart:begin -->", 1)[1].split("<!-- quickstart:end -->", 1)[0]
    return BLOCK.findall(section)


def with_credentials(block: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        block, count = re.subn(rf"^{name}=('[^']*'|\S+)", f"{name}='{value}'", block, flags=re.M)
        assert count == 1, f"the README's first quickstart block sets no {name}"
    return block


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="curl and jq are needed")
def test_it_runs_the_readme_quickstart_against_a_live_server(live_server, transactional_db, tmp_path):
    organisation = app_customer_create(name="Demo Bank ASA")
    credentials = api_user_create(app_customer=organisation, name="Quickstart", role_keys=ALL_ROLES)
    company = company_make(name="EQUINOR ENERGY AS", org_nr="990888213")
    for year in (2023, 2024):
        accounts_make(company=company, year=year)
    collection_case_make(company=company, amount="18450")
    analysis_refresh(company_uuids=[company.uuid])
    report_types_seed()

    blocks = quickstart_blocks()
    assert len(blocks) >= 8, "the quickstart lost its examples"
    blocks[0] = with_credentials(
        blocks[0],
        {
            "VAKT": live_server.url,
            "ACU": str(organisation.uuid),
            "BASIC_ID": credentials.basic_auth_id,
            "BASIC_SECRET": credentials.basic_auth_secret,
            "TOKEN_ID": credentials.token_auth_id,
            "TOKEN_SECRET": credentials.token_auth_secret,
        },
    )
    script = "set -euo pipefail\n" + "\n".join(blocks)

    run = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)

    assert run.returncode == 0, f"stdout:\n{run.stdout}\nstderr:\n{run.stderr}"
    out = run.stdout
    assert f"app customer {organisation.uuid}" in out  # the first answer
    assert out.count("EQUINOR ENERGY AS") >= 3  # by prefixed number, by uuid, in the dataset; the watchlist
    assert "a bare organisation number needs its schema: NO990888213" in out  # the bare number, 400
    assert "\n403\n" in out and "\n1\n" in out  # no role, then the one collection case with credit_check
    assert '"risk":' in out and '"flags":' in out
    assert out.rstrip().endswith("%PDF-")
    assert (tmp_path / "report.pdf").read_bytes().startswith(b"%PDF")
