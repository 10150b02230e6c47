"""Connect the dashboard to an organisation in the service and create its members.

Takes the API credentials that `create_api_user` printed (on this deployment
or a remote one), stores them encrypted, and creates or updates dashboard
users with the given roles. Prints each user's password when it sets one.
"""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from portal.models import Member, Organisation

ROLES = {choice.value for choice in Member.Role}


class Command(BaseCommand):
    help = "Store an organisation's API credentials for the dashboard and create its members."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="organisation name as shown in the dashboard")
        parser.add_argument("--app-customer-uuid", required=True)
        parser.add_argument("--client-id", required=True, help="the API user's token auth id")
        parser.add_argument("--client-secret", required=True, help="the API user's token auth secret")
        parser.add_argument("--role-keys", default="", help="comma-separated roles the dashboard sends in Nk-Role-Keys")
        parser.add_argument(
            "--user",
            action="append",
            default=[],
            metavar="USERNAME:ROLE",
            help=f"a dashboard user and its role ({', '.join(sorted(ROLES))}); repeatable",
        )
        parser.add_argument(
            "--reset-passwords", action="store_true", help="give existing users a new random password too"
        )

    @transaction.atomic
    def handle(self, *args, **options):
        organisation, _ = Organisation.objects.get_or_create(
            app_customer_uuid=options["app_customer_uuid"],
            defaults={"name": options["name"], "api_client_id": options["client_id"]},
        )
        organisation.name = options["name"]
        organisation.api_client_id = options["client_id"]
        organisation.api_client_secret = options["client_secret"]
        organisation.api_role_keys = options["role_keys"]
        organisation.save()
        self.stdout.write(f"organisation: {organisation.name} ({organisation.app_customer_uuid})")

        User = get_user_model()
        for spec in options["user"]:
            username, _, role = spec.partition(":")
            if role not in ROLES:
                raise CommandError(f"--user {spec!r}: role must be one of {', '.join(sorted(ROLES))}")
            user, created = User.objects.get_or_create(username=username)
            if created or options["reset_passwords"]:
                password = secrets.token_urlsafe(9)
                user.set_password(password)
                user.save()
                self.stdout.write(f"user: {username:10} role: {role:8} password: {password}")
            else:
                self.stdout.write(f"user: {username:10} role: {role:8} (password unchanged)")
            Member.objects.update_or_create(user=user, defaults={"organisation": organisation, "role": role})
