"""Create an organisation (or use an existing one) and an API user; print the credentials once."""

import json as _json
import uuid

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from service.auth.models import ROLE_KEYS, ApiUser, AppCustomer
from service.auth.services import api_user_create, api_user_rotate_secrets, app_customer_create
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
        parser.add_argument(
            "--rotate",
            action="store_true",
            help="if the organisation already has an API user with this name, issue it new secrets instead",
        )
        parser.add_argument("--json", action="store_true", help="print the credentials as one JSON object")

    def handle(self, *args, organisation, name, roles, rotate, **options):
        role_keys = (
            [key for key, _ in ROLE_KEYS] if roles == "all" else [r.strip() for r in roles.split(",") if r.strip()]
        )
        try:
            with transaction.atomic():  # a refused role leaves no new organisation behind
                app_customer = (
                    AppCustomer.objects.filter(uuid=organisation).first() if _looks_like_uuid(organisation) else None
                ) or AppCustomer.objects.filter(name=organisation).first()
                if app_customer is None:
                    app_customer = app_customer_create(name=organisation)
                existing = ApiUser.objects.filter(app_customer=app_customer, name=name).first() if rotate else None
                if existing:
                    issued = api_user_rotate_secrets(api_user=existing, role_keys=role_keys, reactivate=True)
                else:
                    issued = api_user_create(app_customer=app_customer, name=name, role_keys=role_keys)
        except ApiError as exc:
            raise CommandError(exc.detail) from None
        values = {
            "app_customer_uuid": str(app_customer.uuid),
            "app_customer_name": app_customer.name,
            "api_user_uuid": str(issued.api_user.uuid),
            "basic_auth_id": issued.basic_auth_id,
            "basic_auth_secret": issued.basic_auth_secret,
            "token_auth_id": issued.token_auth_id,
            "token_auth_secret": issued.token_auth_secret,
            "roles": sorted(role_keys),
        }
        if options["json"]:
            self.stdout.write(_json.dumps(values))
            return
        for key, value in values.items():
            shown = ", ".join(value) or "none" if isinstance(value, list) else value
            self.stdout.write(f"{key + ':':20}{shown}")
        self.stdout.write(self.style.WARNING("The secrets are shown only now; store them safely."))




def _looks_like_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
