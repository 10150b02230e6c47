"""The screening router: one sub-router per area, mounted under /v1/ by service.api."""

from ninja import Router

from service.screening.batch_api import router as batch_router
from service.screening.case_api import router as case_router
from service.screening.case_batch_api import router as case_batch_router
from service.screening.case_report_api import router as case_report_router
from service.screening.case_statistics_api import router as case_statistics_router
from service.screening.config_api import router as config_router
from service.screening.hold_api import router as hold_router
from service.screening.monitoring_api import router as monitoring_router
from service.screening.person_api import router as person_router
from service.screening.person_import_api import router as person_import_router
from service.screening.person_import_job_api import router as person_import_job_router
from service.screening.preview_api import router as preview_router
from service.screening.related_status_api import router as related_status_router
from service.screening.run_api import router as run_router
from service.screening.watchlist_link_api import router as watchlist_link_router

router = Router(tags=["Screening"])
router.add_router("", config_router)
router.add_router("", watchlist_link_router)
router.add_router("", person_router)
router.add_router("", person_import_router)
router.add_router("", person_import_job_router)
router.add_router("", monitoring_router)
router.add_router("", case_router)
router.add_router("", case_batch_router)
router.add_router("", case_statistics_router)
router.add_router("", related_status_router)
router.add_router("", case_report_router)
router.add_router("", batch_router)
router.add_router("", preview_router)
router.add_router("", run_router)
router.add_router("", hold_router)
