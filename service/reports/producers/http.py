"""A partner adapter that fetches the report from an external partner over HTTP.

    VAKT_REPORT_PRODUCER=service.reports.producers.http.HttpReportProducer
    VAKT_REPORT_PARTNER_URL=https://partner.example/api/reports

POSTs the order line as JSON and expects the PDF as the answer's body. Each request
has a timeout; connection errors and 429/5xx answers are retried with backoff
(urllib3's Retry). The report uuid goes along as `Idempotency-Key`, so a retried
POST (or a re-run task) never makes the partner bill twice.
"""

from __future__ import annotations

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.exceptions import MaxRetryError, TimeoutError as Urllib3Timeout
from urllib3.util.retry import Retry

from service.reports.producers import ProducedFile, ProducerError

ACCEPTED_TYPES = ("application/pdf",)


class HttpReportProducer:
    def __init__(
        self,
        *,
        url: str | None = None,
        timeout_seconds: float | None = None,
        retries: int | None = None,
        backoff_seconds: float = 0.5,
        session: requests.Session | None = None,
    ) -> None:
        self.url = url if url is not None else settings.VAKT_REPORT_PARTNER_URL
        if not self.url:
            raise ProducerError("No report partner is configured (VAKT_REPORT_PARTNER_URL is empty).")
        self.timeout = timeout_seconds if timeout_seconds is not None else settings.VAKT_REPORT_PARTNER_TIMEOUT_SECONDS
        retries = retries if retries is not None else settings.VAKT_REPORT_PARTNER_RETRIES
        self.session = session or requests.Session()
        retry = Retry(
            total=retries,
            backoff_factor=backoff_seconds,
            status_forcelist=(429, 500, 502, 503, 504),
            allowed_methods=frozenset({"POST"}),  # safe: the partner deduplicates by Idempotency-Key
            raise_on_status=False,
        )
        adapter = HTTPAdapter(max_retries=retry)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)

    def produce(self, report) -> ProducedFile:
        company = report.company
        body = {
            "partner_report_uuid": str(report.uuid),
            "partner_report_type_key": report.report_type.key,
            "company": {"uuid": str(company.uuid), "name": company.name, "org_nr": company.org_nr,
                        "org_nr_schema": company.org_nr_schema},
        }
        try:
            response = self.session.post(
                self.url, json=body, timeout=self.timeout,
                headers={"Idempotency-Key": str(report.uuid), "Accept": ", ".join(ACCEPTED_TYPES)},
            )
        except requests.Timeout:
            raise ProducerError(f"The report partner did not answer within {self.timeout:g} s.") from None
        except requests.RequestException as exc:
            if _timed_out(exc):  # the last retry timed out: urllib3 wraps it in a ConnectionError
                raise ProducerError(f"The report partner did not answer within {self.timeout:g} s.") from None
            raise ProducerError(f"The report partner could not be reached ({type(exc).__name__}).") from None
        if response.status_code != 200:
            raise ProducerError(f"The report partner answered HTTP {response.status_code}.")
        content_type = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if content_type not in ACCEPTED_TYPES or not response.content.startswith(b"%PDF"):
            raise ProducerError(f"The report partner sent no PDF (content type {content_type or 'none'!r}).")
        return ProducedFile(content=response.content, content_type=content_type)


def _timed_out(exc: requests.RequestException) -> bool:
    cause = exc.args[0] if exc.args else None
    return isinstance(cause, MaxRetryError) and isinstance(cause.reason, Urllib3Timeout)
