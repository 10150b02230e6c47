"""An officer who checked a name by mistake (a colleague's private person, say) deletes it from the
browser: the job's page says until when it is kept, the officer confirms, and the list shows the
check as deleted, with no result to download.

Screenshots `batch-delete-confirm.png` and `batch-deleted.png` go to $VAKT_SCREENSHOT_DIR when it is
set, else tmp_path.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from service.screening.models import ScreeningBatch
from tests.browser.conftest import log_in
from tests.browser.test_batch_screening_flow import officer  # noqa: F401  (an officer screening against the UN list)
from tests.service.screening.cases.conftest import lists  # noqa: F401


def test_an_officer_deletes_a_name_checked_by_mistake(page, officer, lists, shots, settings):  # noqa: F811
    settings.VAKT_BATCH_RETENTION_DAYS = 30
    log_in(page, officer)
    page.get_by_test_id("nav-menu-toggle").click()
    page.get_by_test_id("nav-batches").click()
    form = page.get_by_test_id("name-check-form")
    form.get_by_label("Name").fill("Kari Nordmann")
    form.get_by_role("button", name="Check the name").click()
    expect(page.get_by_test_id("batch-summary")).to_contain_text("No possible hit for Kari Nordmann.")
    expect(page.get_by_test_id("batch-kept-until")).to_contain_text("Kept until")
    [job] = ScreeningBatch.objects.all()
    folder = Path(settings.MEDIA_ROOT) / "screening-batch" / str(job.uuid)
    assert folder.exists() and any(folder.iterdir())

    page.get_by_test_id("batch-delete").click()
    confirm = page.get_by_test_id("batch-delete-confirm")
    expect(confirm).to_contain_text("The name checked and its result are deleted")
    page.screenshot(path=str(shots / "batch-delete-confirm.png"), full_page=True)
    confirm.get_by_role("button", name="Delete the file and its result").click()

    expect(page.get_by_role("heading", name="Batch screening")).to_be_visible()
    expect(page.get_by_text("Kari Nordmann (name check): the name and its result are deleted.")).to_be_visible()
    row = page.get_by_test_id("batch-row")
    expect(row.get_by_test_id("batch-status")).to_contain_text("Deleted")
    expect(row.get_by_test_id("batch-link")).to_have_text("A name checked")  # the name is gone from the list
    expect(row.get_by_test_id("batch-result-csv")).to_have_count(0)
    page.screenshot(path=str(shots / "batch-deleted.png"), full_page=True)
    assert not folder.exists() or not any(folder.iterdir())
    assert ScreeningBatch.objects.get().status == "deleted"

    row.get_by_test_id("batch-link").click()
    expect(page.get_by_test_id("batch-deleted")).to_contain_text("The name checked and its result were deleted on")
    expect(page.get_by_test_id("batch-delete")).to_have_count(0)
    assert list(page.js_errors) == []
