"""Importing customer persons from a file, on the approvals page's Customer persons tab (admins).

A CSV file of private customers goes to the service's import (one call, all or nothing): each row
becomes a customer person put under monitoring (its `id` their customer reference), one who is a
customer person already (the same customer reference, national id, or name and birth date) is put
under monitoring if they are not, and left as they are if they are. *Check the file* sends it as a dry run: the service checks every row and says
what importing would do, writing nothing. The result, or every problem of the file by line and
column, is shown in a panel beside the form (htmx swaps it, so the chosen file stays chosen for the
import).

A file larger than the synchronous import takes (`VAKT_MAX_BODY_BYTES`), up to `VAKT_IMPORT_JOB_MAX_BYTES`, goes
to the service's import job instead: the same import in the background. The panel then shows the job, polled
every 2 s while it runs (`job_context`): its counts in the same words, or its problems as the synchronous import's.
"""

from __future__ import annotations

from django import forms
from django.conf import settings

from portal.feedback import service_error_text
from portal.service import ServiceBadRequest, ServiceError, ServiceForbidden, ServiceNoAnswer
from screening.customer_person_form import ServiceForm
from screening.pages import NATIONAL_ID
from screening.uploaded_files import file_problems, problems_text, too_large_text
from vakt_format.norwegian import amount, file_size

ROWS_SHOWN = 200  # a long file's first rows; the panel says how many more
COMMENT_MAX = 500  # the service's monitoring_comment
NOTHING_IMPORTED = "Nothing was imported."
NO_NATIONAL_ID_ROLE = (f"{NOTHING_IMPORTED} The file has national ids, and recording them needs the API role "
                       f"{NATIONAL_ID}, which your role does not send. Leave out the national_id and "
                       "national_id_country columns, or ask an admin of your organisation about the role.")
# Failures of a job that are not the rows' fault, and their reason when the service gives none (it does).
JOB_FAILURE_WORDS = {
    "too_many_rows": "The file has more rows than an import takes. Split it into smaller files.",
    "changed_meanwhile": "Customer persons were changed while the file was imported. Import it again.",
    "unavailable": "The service could not finish the import. Try again in a moment.",
}
# A row's outcome in words: as imported, and as a dry run says it would be.
OUTCOME_WORDS = {
    "created": ("Added", "Would be added"),
    "monitored": ("Already a customer: put under monitoring", "Already a customer: would be put under monitoring"),
    "already_monitored": ("Already under monitoring: nothing done", "Already under monitoring: nothing to do"),
}


class CustomerPersonImportForm(ServiceForm):
    """The file, why its persons are screened, and whether their monitorings are approved at once."""

    service_step = "import"

    file = forms.FileField(label="CSV file (UTF-8)", error_messages={
        "required": "Choose a CSV file of customer persons.", "empty": "The file is empty."})
    comment = forms.CharField(required=False, max_length=COMMENT_MAX, label="Why these persons are screened",
                              widget=forms.TextInput(attrs={"placeholder": "e.g. Private customers of the bank"}))
    # Unticked by default, as the service's default: a file of thousands is not screened by a slip.
    approve = forms.BooleanField(required=False, initial=False, label="Screen from now on (approve every monitoring)")

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_import_%s")  # beside the add form's fields on the same page
        super().__init__(*args, **kwargs)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if too_large := too_large_text(upload, not_done="imported", limit=settings.VAKT_IMPORT_JOB_MAX_BYTES):
            raise forms.ValidationError(too_large)
        return upload

    @property
    def limits(self) -> dict:
        """What the columns' help says of a file's size: sent at once up to the body limit, larger as a job."""
        return {"rows": settings.VAKT_BATCH_MAX_ROWS, "bytes": file_size(settings.VAKT_MAX_BODY_BYTES),
                "job_rows": settings.VAKT_IMPORT_JOB_MAX_ROWS, "job_bytes": file_size(settings.VAKT_IMPORT_JOB_MAX_BYTES)}

    def clean_comment(self) -> str:
        return " ".join(self.cleaned_data["comment"].split())

    def problems(self) -> list[str]:
        """What keeps the form from being sent, as the result panel lists it (the form itself shows no error:
        with htmx only the panel is swapped)."""
        return [error for errors in self.errors.values() for error in errors]


def import_file(screening, config, form: CustomerPersonImportForm, *, dry_run: bool) -> dict:
    """Send the form's file (as a dry run: only checked); the result panel's context: the result, or the
    file's problems, or why nothing was imported. A file over the service's body limit is sent as a job
    (`import_job` in the context: `job_context`'s), and so is one the synchronous import refuses for its rows alone."""
    upload = form.cleaned_data["file"]
    data = form.cleaned_data
    sent = {"file_name": upload.name, "content": upload.read(), "approve": data["approve"], "comment": data["comment"],
            "dry_run": dry_run}
    as_job = upload.size > settings.VAKT_MAX_BODY_BYTES
    try:
        try:
            answer = (screening.import_job_start if as_job else screening.import_customer_persons)(config.uuid, **sent)
        except ServiceBadRequest as exc:
            if as_job or exc.code != "too_many_rows":
                raise
            as_job = True  # many short rows: more than the synchronous import takes in fewer bytes; the job takes them
            answer = screening.import_job_start(config.uuid, **sent)
    except ServiceBadRequest as exc:
        return _refused(form, exc)
    except ServiceForbidden as exc:
        if NATIONAL_ID in exc.detail:
            return {"import_error": NO_NATIONAL_ID_ROLE}
        return {"import_error": f"{NOTHING_IMPORTED} {service_error_text(exc)}"}
    except ServiceNoAnswer as exc:
        if dry_run:  # a check writes nothing
            return {"import_error": f"The file was not checked. {service_error_text(exc)}"}
        return {"import_error": f"{upload.name}: {service_error_text(exc)}"}
    except ServiceError as exc:
        return {"import_error": f"{NOTHING_IMPORTED} {service_error_text(exc)}"}
    return job_context(answer) if as_job else result_context(answer)


def job_context(job) -> dict:
    """The result panel's context for an import job: while it runs, the job alone (the panel says so and polls);
    complete, its counts in the words of `counts_text` and `approval_text`; failed (nothing written), why: the
    file's problems by line and column as the synchronous import lists them (`failure_errors` are its 400's
    `errors`), the missing role in its words, or the reason of a failure that is not the rows' fault."""
    if job.status == "complete":
        return {"import_job": job, "import_counts": counts_text(job), "import_approval": approval_text(job)}
    if job.status != "failed":
        return {"import_job": job}
    if job.failure_code == "role_missing":  # national ids without person_national_identification
        return {"import_job": job, "import_error": NO_NATIONAL_ID_ROLE}
    if job.failure_errors and job.failure_code not in JOB_FAILURE_WORDS:
        return {"import_job": job, "import_problems": problems_text(job.failure_errors, job.failure_detail),
                "import_problems_about_rows": True}
    return {"import_job": job, "import_error": f"{NOTHING_IMPORTED} {_failure_reason(job)}"}


def _failure_reason(job) -> str:
    """The service's reason as a sentence: its one problem's words (without "Invalid value for file:"), its detail,
    or ours."""
    reason = (job.failure_errors[0].get("msg") if job.failure_errors else "") or job.failure_detail \
        or JOB_FAILURE_WORDS.get(job.failure_code or "", "The import failed.")
    reason = reason[:1].upper() + reason[1:]
    return reason if reason.endswith((".", "!", "?")) else f"{reason}."


def _refused(form, error: ServiceBadRequest) -> dict:
    """A 400: the rows' problems by line and column (the file's), or a field of the form's put in words."""
    about_file = [e for e in error.errors if [str(part) for part in e.get("loc") or []][:2] == ["body", "file"]]
    if about_file or not error.errors:
        return {"import_problems": file_problems(error), "import_problems_about_rows": True}
    form.add_service_errors(error)
    return {"import_problems": form.problems()}


def result_context(result) -> dict:
    rows = [{"row": row, "outcome": _outcome_words(row)[result.dry_run]} for row in result.rows[:ROWS_SHOWN]]
    return {
        "import_result": result,
        "import_counts": counts_text(result),
        "import_approval": approval_text(result),
        "import_rows": rows,
        "import_rows_more": max(0, len(result.rows) - ROWS_SHOWN),
    }


def _outcome_words(row) -> tuple[str, str]:
    recorded = " and ".join(what for what, added in (("national id", row.national_id_added),
                                                     ("customer reference", row.reference_added)) if added)
    if row.outcome == "already_monitored" and row.approved_now:
        also = f", {recorded} recorded" if recorded else ""
        return f"Waited for a decision: approved{also}", f"Waits for a decision: would be approved{also.replace('recorded', 'would be recorded')}"
    if row.outcome == "already_monitored" and recorded:
        return f"Already under monitoring: {recorded} recorded", f"Already under monitoring: {recorded} would be recorded"
    return OUTCOME_WORDS.get(row.outcome, (row.outcome, row.outcome))


def counts_text(result) -> str:
    """"12 new customer persons added, 1 existing customer person put under monitoring, 3 already under
    monitoring, 2 national ids recorded for existing customer persons."; a dry run says what would be."""
    would = result.dry_run
    parts = [f"{_counted(result.created_count, 'new customer person')} {'would be added' if would else 'added'}"]
    if result.existing_monitored_count:
        who = _counted(result.existing_monitored_count, "existing customer person")
        parts.append(f"{who} {'would be put' if would else 'put'} under monitoring")
    if result.already_monitored_count:
        parts.append(f"{amount(result.already_monitored_count)} already under monitoring")
    if result.national_ids_added_count:  # numbers existing persons lacked (a new person's are part of adding them)
        recorded = "would be recorded" if would else "recorded"
        parts.append(f"{_counted(result.national_ids_added_count, 'national id')} {recorded} for existing customer persons")
    return ", ".join(parts) + "."


def approval_text(result) -> str:
    """Whether the monitorings made are screened at once or wait for a decision (and those that waited,
    when the import approves)."""
    waited = ""
    if result.approved_now_count:
        count = result.approved_now_count
        waited = (f" {_counted(count, 'monitoring')} that waited for a decision {'would be' if result.dry_run else 'is' if count == 1 else 'are'}"
                  " approved as well.")
    return _made_text(result) + waited


def _made_text(result) -> str:
    count = result.monitored_count
    if not count:
        return "No monitoring would be made." if result.dry_run else "No monitoring was made."
    the = f"The {amount(count)} new monitorings" if count > 1 else "The new monitoring"
    if result.dry_run:
        return (f"{the} would be approved at once: screened from now on." if result.approved
                else f"{the} would wait under Pending for a decision.")
    return (f"{the} {'are' if count > 1 else 'is'} approved: screened from now on." if result.approved
            else f"{the} wait{'' if count > 1 else 's'} under Pending for a decision.")


def _counted(count: int, one: str, many: str | None = None) -> str:
    return f"{amount(count)} {one if count == 1 else many or one + 's'}"
