"""The demo generator reads the same reference data as the importers."""

from tests.service.companies.importers.conftest import reference_data  # noqa: F401  (a fixture)
