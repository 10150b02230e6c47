"""New versions of the tests' tiny lists, imported with the real importer (which enqueues the
delta re-screen on commit, run in-process by the eager Celery of the tests)."""

from __future__ import annotations

import json

from service.screening.list_import import ListImportResult, screening_list_import
from service.screening.models import ScreeningListCategory
from tests.service.screening.cases.conftest import PEP_RECORDS, UN_XML

NEW_UN_PERSON = "Olena Petrenko Kovalenko"
NEW_INDIVIDUAL = """    <INDIVIDUAL>
      <DATAID>3</DATAID>
      <FIRST_NAME>OLENA</FIRST_NAME>
      <SECOND_NAME>PETRENKO</SECOND_NAME>
      <THIRD_NAME>KOVALENKO</THIRD_NAME>
      <UN_LIST_TYPE>DPRK</UN_LIST_TYPE>
      <REFERENCE_NUMBER>KPi.902</REFERENCE_NUMBER>
      <LISTED_ON>2024-03-01</LISTED_ON>
    </INDIVIDUAL>
  </INDIVIDUALS>"""


def un_xml(*, person_comment: str = "", company_comment: str = "", new_individual: bool = False, padding: str = "") -> str:
    """The UN list of conftest, with a comment on the listed person (KPi.901) or company
    (KPe.901) changing that entry, or one more individual (KPi.902); `padding` changes the file
    but no entry."""
    text = UN_XML
    if person_comment:
        text = text.replace("<LISTED_ON>2017-06-02</LISTED_ON>\n      <GENDER>", f"<LISTED_ON>2017-06-02</LISTED_ON>\n      <COMMENTS1>{person_comment}</COMMENTS1>\n      <GENDER>")
    if company_comment:
        text = text.replace("<REFERENCE_NUMBER>KPe.901</REFERENCE_NUMBER>", f"<REFERENCE_NUMBER>KPe.901</REFERENCE_NUMBER>\n      <COMMENTS1>{company_comment}</COMMENTS1>")
    if new_individual:
        text = text.replace("  </INDIVIDUALS>", NEW_INDIVIDUAL)
    return text + padding


def un_import(tmp_path, name: str, text: str) -> ListImportResult:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return screening_list_import(category=ScreeningListCategory.objects.get(key="un_security_council"), path=path)


def pep_import(tmp_path, name: str, *, url: str) -> ListImportResult:
    records = [{**PEP_RECORDS[0], "URL": url}]
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return screening_list_import(category=ScreeningListCategory.objects.get(key="pep"), path=path)
