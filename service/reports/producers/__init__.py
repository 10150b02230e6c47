"""Report producers: partner adapters behind one small interface.

    producer = producer_get()                 # the class named by VAKT_REPORT_PRODUCER
    produced = producer.produce(report)       # report: a PartnerReport (one line of an order)
    produced.content, produced.content_type

The built-in `pdf.PdfReportProducer` renders the report itself with reportlab;
`http.HttpReportProducer` asks an external partner for it. A producer raises
`ProducerError` when a report cannot be made; its message becomes the failure reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from django.conf import settings
from django.utils.module_loading import import_string


@dataclass(frozen=True)
class ProducedFile:
    content: bytes
    content_type: str


class ProducerError(Exception):
    """The report cannot be produced; str(error) is shown to the customer as the failure reason."""


class ReportProducer(Protocol):
    def produce(self, report) -> ProducedFile: ...


def producer_get() -> ReportProducer:
    return import_string(settings.VAKT_REPORT_PRODUCER)()
