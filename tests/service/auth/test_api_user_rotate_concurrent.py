"""Rotating or changing an API user while another request changes it: each works on the row as it
is now (locked), not on the copy its request read before, so a rotation neither revives an API
user deactivated meanwhile nor reuses a credentials version a concurrent rotation already took,
and a second deactivation records nothing."""

from __future__ import annotations

import pytest

from service.audit.models import AuditEvent
from service.auth.models import ApiUser
from service.auth.services import api_user_create, api_user_rotate_secrets, api_user_update
from service.errors import ApiError


@pytest.fixture
def erp(api):
    return api_user_create(app_customer=api.credentials.api_user.app_customer, name="ERP", role_keys=["aml"]).api_user


def test_a_rotation_does_not_revive_an_api_user_deactivated_after_its_request_read_it(erp):
    read_by_the_rotation = ApiUser.objects.get(pk=erp.pk)  # active when the request checked it
    api_user_update(api_user=ApiUser.objects.get(pk=erp.pk), active_flag=False)  # another admin, meanwhile

    with pytest.raises(ApiError) as refused:
        api_user_rotate_secrets(api_user=read_by_the_rotation, role_keys=["aml"])

    assert (refused.value.status, refused.value.code) == (409, "api_user_deactivated")
    assert ApiUser.objects.get(pk=erp.pk).is_active is False


def test_two_rotations_from_the_same_read_each_take_a_new_credentials_version(erp):
    first_request, second_request = ApiUser.objects.get(pk=erp.pk), ApiUser.objects.get(pk=erp.pk)
    start = erp.credentials_version

    api_user_rotate_secrets(api_user=first_request, role_keys=["aml"])
    api_user_rotate_secrets(api_user=second_request, role_keys=["aml"])

    # Tokens carry the version: had both written start + 1, tokens issued with the first
    # rotation's secrets would outlive the second rotation.
    assert ApiUser.objects.get(pk=erp.pk).credentials_version == start + 2


def test_the_command_reissues_secrets_of_a_deactivated_api_user(erp):
    api_user_update(api_user=erp, active_flag=False)

    issued = api_user_rotate_secrets(api_user=erp, role_keys=["aml"], reactivate=True)

    assert issued.api_user.is_active and ApiUser.objects.get(pk=erp.pk).is_active


def test_a_deactivation_from_a_copy_read_before_another_deactivation_records_nothing(erp):
    read_by_the_request = ApiUser.objects.get(pk=erp.pk)  # active when the request checked it
    api_user_update(api_user=ApiUser.objects.get(pk=erp.pk), active_flag=False)  # another admin, meanwhile

    api_user_update(api_user=read_by_the_request, active_flag=False)

    assert AuditEvent.objects.filter(object_uuid=erp.uuid, action_key="api_user.deactivate").count() == 1
