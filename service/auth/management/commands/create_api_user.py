"""Create an organisation (or use an existing one) and an API user; print the credentials once."""

import uuid

from django.core.management.base import BaseCommand, CommandError

from service.auth.models import ROLE_KEYS, AppCustomer
from service.auth.services import api_user_create, app_customer_create
from service.errors import ApiError


class Command(BaseCommand):
    help = "Create an API user (and its organisation when --organisation names a new one) and print its credentials."

    def add_arguments(self, parser):
        parser.add_argument("--organisation", required=True, help="organisation name, or uuid of an existing one")
        parser.add_argument("--name", default="API user", help="a label for the API user")
        parser.add_argument(
            "--roles",
            default="",
            help=f"comma-separated role keys ({', '.join(key for key, _ in ROLE_KEYS)}), or 'all'",
        )

    def handle(self, *args, organisation, name, roles, **options):
        app_customer = (
            AppCustomer.objects.filter(uuid=organisation).first() if _looks_like_uuid(organisation) else None
        ) or AppCustomer.objects.filter(name=organisation).first()
        if app_customer is None:
            app_customer = app_customer_create(name=organisation)
        role_keys = [key for key, _ in ROLE_KEYS] if roles == "all" else [r for r in roles.split(",") if r]
        try:
            issued = api_user_create(app_customer=app_customer, name=name, role_keys=role_keys)
        except ApiError as exc:
            raise CommandError(exc.detail) from None
        self.stdout.write(f"app_customer_uuid:  {app_customer.uuid}")
        self.stdout.write(f"api_user_uuid:      {issued.api_user.uuid}")
        self.stdout.write(f"basic_auth_id:      {issued.basic_auth_id}")
        self.stdout.write(f"basic_auth_secret:  {issued.basic_auth_secret}")
        self.stdout.write(f"token_auth_id:      {issued.token_auth_id}")
        self.stdout.write(f"token_auth_secret:  {issued.token_auth_secret}")
        self.stdout.write(f"roles:              {', '.join(sorted(role_keys)) or 'none'}")
        self.stdout.write(self.style.WARNING("The secrets are shown only now; store them safely."))


def _looks_like_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
