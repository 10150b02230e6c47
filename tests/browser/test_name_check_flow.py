"""An officer checks one name from the browser: a birth date that is no date is shown at its
field, the corrected name is screened while the worker is busy, and the job's page shows the hit
by itself once the worker is done.

Screenshots `name-check-problem.png` and `name-check.png` go to $VAKT_SCREENSHOT_DIR when it is
set, else tmp_path.
"""

from __future__ import annotations

from playwright.sync_api import expect

from service.screening.batch_tasks import screening_batch_task
from service.screening.models import ScreeningBatch
from tests.browser.conftest import log_in
from tests.browser.test_batch_screening_flow import officer  # noqa: F401  (an officer screening against the UN list)
from tests.service.screening.cases.conftest import broker_away, lists  # noqa: F401


def test_an_officer_checks_a_name_and_sees_the_hit_when_it_is_screened(page, officer, lists, broker_away, shots):  # noqa: F811
    log_in(page, officer)
    page.get_by_test_id("nav-menu-toggle").click()
    page.get_by_test_id("nav-batches").click()
    form = page.get_by_test_id("name-check-form")
    form.get_by_label("Name").fill("Dragunov Ivan Sergeevich")
    form.get_by_label("Birth date").fill("31.02.1966")
    form.get_by_label("Nationality or country").fill("RU")
    form.get_by_role("button", name="Check the name").click()
    expect(page.get_by_test_id("field-error-birth_date")).to_have_text("'31.02.1966' is not a date.")
    expect(page.get_by_test_id("name-check-form").get_by_label("Name")).to_have_value("Dragunov Ivan Sergeevich")
    page.screenshot(path=str(shots / "name-check-problem.png"), full_page=True)
    assert ScreeningBatch.objects.count() == 0

    page.get_by_test_id("name-check-form").get_by_label("Birth date").fill("14.03.1966")
    with broker_away():  # the worker is busy: the job waits
        page.get_by_test_id("name-check-form").get_by_role("button", name="Check the name").click()
        expect(page.get_by_test_id("batch-name")).to_have_text("Dragunov Ivan Sergeevich (name check)")
        expect(page.get_by_test_id("batch-status")).to_contain_text("Waiting")
    [batch] = ScreeningBatch.objects.all()

    screening_batch_task.delay(str(batch.uuid))  # the worker takes it; the page polls and reloads itself
    expect(page.get_by_test_id("batch-summary")).to_contain_text("1 possible hit for Dragunov Ivan Sergeevich.")
    expect(page.get_by_test_id("batch-hit-name")).to_contain_text("DRAGUNOV")
    page.screenshot(path=str(shots / "name-check.png"), full_page=True)
    assert list(page.js_errors) == []
