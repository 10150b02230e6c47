from tests.portal.conftest import member, other_member  # noqa: F401  (dashboard members for these tests)
