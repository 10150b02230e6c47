from tests.portal.conftest import make_member, member, other_member  # noqa: F401  (dashboard members for these tests)
