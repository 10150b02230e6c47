"""Credentials are resolved once per few seconds, yet changes to API users apply at once."""

from service.auth.models import AppRole


def test_it_resolves_repeated_basic_auth_without_queries(api, django_assert_num_queries):
    api.get("/analysis/v1/auth-status")
    with django_assert_num_queries(0):
        assert api.get("/analysis/v1/auth-status").status_code == 200


def test_it_sees_a_deactivated_user_at_once(api):
    assert api.get("/analysis/v1/auth-status").status_code == 200
    api.credentials.api_user.is_active = False
    api.credentials.api_user.save()
    assert api.get("/analysis/v1/auth-status").status_code == 401


def test_it_sees_a_removed_role_at_once(api):
    assert "credit_check" in api.get("/analysis/v1/auth-status", roles=["credit_check"]).content.decode()
    api.credentials.api_user.roles.remove(AppRole.objects.get(key="credit_check"))
    assert "credit_check" not in api.get("/analysis/v1/auth-status", roles=["credit_check"]).content.decode()


def test_it_remembers_a_wrong_secret_as_refused(api, django_assert_num_queries):
    api.credentials = type(api.credentials)(
        api.credentials.api_user, api.credentials.basic_auth_id, "wrong", api.credentials.token_auth_id, "x"
    )
    assert api.get("/analysis/v1/auth-status").status_code == 401
    with django_assert_num_queries(0):
        assert api.get("/analysis/v1/auth-status").status_code == 401


def test_another_process_forgetting_reaches_this_one(api):
    """Another web process saves the API user: it bumps the shared generation, and this process,
    whose own memory was not cleared, stops using what it remembered."""
    from django.core.cache import cache

    from service.auth.models import ApiUser
    from service.auth.principal_cache import GENERATION_KEY

    assert api.get("/analysis/v1/auth-status").status_code == 200  # remembered here
    ApiUser.objects.filter(uuid=api.credentials.api_user.uuid).update(is_active=False)  # no signal in this process
    assert api.get("/analysis/v1/auth-status").status_code == 200  # still remembered: nothing said otherwise

    cache.add(GENERATION_KEY, 0, timeout=None)
    cache.incr(GENERATION_KEY)  # what callers_forget does in the other process

    assert api.get("/analysis/v1/auth-status").status_code == 401


def test_what_another_process_remembered_while_a_deactivation_was_uncommitted_is_forgotten_at_commit(
    api, django_capture_on_commit_callbacks
):
    """Until the deactivation commits, another process still reads the API user as active and
    may remember it (under the generation the save just bumped): the commit must forget it too,
    or the credentials keep working there for VAKT_AUTH_CACHE_SECONDS."""
    from django.db import transaction

    from service.auth.principal_cache import KnownCaller, caller_remember, caller_remembered
    from service.auth.services import api_user_update

    user = api.credentials.api_user
    key = ("token", user.uuid, user.credentials_version)
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            api_user_update(api_user=user, active_flag=False)
            # Another process, a request with a token, reading the committed (still active) row:
            caller_remember(key, KnownCaller(user.uuid, user.app_customer_id, frozenset({"aml"})))
            assert caller_remembered(key)[0]

    assert caller_remembered(key) == (False, None)
    assert api.get("/analysis/v1/auth-status").status_code == 401
