"""Every screening record links to its page in the dashboard (spec §2.1 app_url)."""

from __future__ import annotations

from tests.service.screening.helpers import customer_person_make, config_make, monitoring_make


def test_configs_persons_and_monitorings_link_to_their_dashboard_pages(api, settings):
    settings.VAKT_BASE_URL = "https://vakt.example"
    config = config_make(api)
    person = customer_person_make(api, config["uuid"])
    monitoring = monitoring_make(api, config["uuid"], customer_person=person["uuid"])["entity_monitoring"]
    assert config["app_url"] == f"https://vakt.example/screening/configs/{config['uuid']}/"
    assert person["app_url"] == f"https://vakt.example/screening/customer-persons/{person['uuid']}/"
    assert monitoring["app_url"] == f"https://vakt.example/screening/monitorings/{monitoring['uuid']}/"
