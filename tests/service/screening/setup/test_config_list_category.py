"""POST/GET/DELETE /v1/screening-config/{uuid}/screening-config-screening-list-category."""

from __future__ import annotations

from service.screening.models import ScreeningConfigListCategory
from tests.service.screening.helpers import AML, category_uuid, config_make, config_url, delete

TAIL = "/screening-config-screening-list-category"


def test_it_selects_a_category_and_lists_the_selection(api):
    config = config_make(api)
    response = api.post(
        config_url(config["uuid"], TAIL),
        {"screening_list_category_uuid": category_uuid(), "screening_config_uuid": config["uuid"]},
        roles=AML,
    )
    assert response.status_code == 201, response.json()
    assert response.json()["screening_list_category_key"] == "un_security_council"
    listed = api.get(config_url(config["uuid"], TAIL), roles=AML).json()
    assert [link["screening_list_category_uuid"] for link in listed] == [category_uuid()]


def test_it_refuses_the_same_category_twice_naming_the_field(api):
    config = config_make(api)
    body = {"screening_list_category_uuid": category_uuid()}
    assert api.post(config_url(config["uuid"], TAIL), body, roles=AML).status_code == 201
    again = api.post(config_url(config["uuid"], TAIL), body, roles=AML)
    assert again.status_code == 400
    assert again.json()["code"] == "already_selected"
    assert again.json()["errors"][0]["loc"] == ["body", "screening_list_category_uuid"]
    assert ScreeningConfigListCategory.objects.count() == 1


def test_it_refuses_an_unknown_category_naming_the_field(api):
    config = config_make(api)
    response = api.post(
        config_url(config["uuid"], TAIL), {"screening_list_category_uuid": config["uuid"]}, roles=AML
    )
    assert response.status_code == 404
    assert response.json()["errors"][0]["loc"] == ["body", "screening_list_category_uuid"]


def test_it_refuses_a_body_naming_another_config(api):
    config, other = config_make(api), config_make(api)
    response = api.post(
        config_url(config["uuid"], TAIL),
        {"screening_list_category_uuid": category_uuid(), "screening_config_uuid": other["uuid"]},
        roles=AML,
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["body", "screening_config_uuid"]
    assert not ScreeningConfigListCategory.objects.exists()


def test_it_unselects_a_category(api):
    config = config_make(api)
    link = api.post(config_url(config["uuid"], TAIL), {"screening_list_category_uuid": category_uuid()}, roles=AML)
    assert delete(api, config_url(config["uuid"], f"{TAIL}/{link.json()['uuid']}")).status_code == 204
    assert api.get(config_url(config["uuid"], TAIL), roles=AML).json() == []


def test_it_keeps_another_organisations_config_out_of_reach(api, other_api):
    theirs = config_make(other_api)
    link = other_api.post(
        config_url(theirs["uuid"], TAIL), {"screening_list_category_uuid": category_uuid()}, roles=AML
    ).json()
    body = {"screening_list_category_uuid": category_uuid("pep")}
    assert api.post(config_url(theirs["uuid"], TAIL), body, roles=AML).status_code == 404
    assert api.get(config_url(theirs["uuid"], TAIL), roles=AML).status_code == 404
    assert delete(api, config_url(theirs["uuid"], f"{TAIL}/{link['uuid']}")).status_code == 404
    assert ScreeningConfigListCategory.objects.count() == 1


def test_it_needs_the_aml_role(api):
    config = config_make(api)
    response = api.post(config_url(config["uuid"], TAIL), {"screening_list_category_uuid": category_uuid()})
    assert response.status_code == 403
