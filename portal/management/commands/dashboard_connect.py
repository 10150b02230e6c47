"""Connect the dashboard to an organisation in the service and create its members.

Takes the API credentials that `create_api_user` printed (on this deployment
or a remote one), stores them encrypted, and creates or updates dashboard
users with the given roles. Prints each user's password when it sets one.

Each member is also a person in the service (an app membership, found by email or invited
through the service layer), so the reviews, decisions and changes they make carry their
`app_membership_uuid`. Inviting needs the `app_admin` role on the API user; without it the
member is kept without one and the command says so.
"""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from portal.models import Member, Organisation
from portal.service import ServiceError, service_client_for

ROLES = {choice.value for choice in Member.Role}


class Command(BaseCommand):
    help = "Store an organisation's API credentials for the dashboard and create its members."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="organisation name as shown in the dashboard")
        parser.add_argument("--app-customer-uuid", required=True)
        parser.add_argument("--client-id", required=True, help="the API user's token auth id")
        parser.add_argument("--client-secret", required=True, help="the API user's token auth secret; write --client-secret=SECRET, as it may begin with \"-\"")
        parser.add_argument("--role-keys", default="", help="comma-separated roles the dashboard sends in Nk-Role-Keys")
        parser.add_argument(
            "--user",
            action="append",
            default=[],
            metavar="USERNAME:ROLE[:EMAIL]",
            help=f"a dashboard user, its role ({', '.join(sorted(ROLES))}) and email (default USERNAME@example.com); repeatable",
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
            username, _, rest = spec.partition(":")
            role, _, email = rest.partition(":")
            if role not in ROLES:
                raise CommandError(f"--user {spec!r}: role must be one of {', '.join(sorted(ROLES))}")
            user, created = User.objects.get_or_create(username=username)
            if email or not user.email:
                user.email = (email or f"{username}@example.com").lower()
                user.save(update_fields=["email"])
            if created or options["reset_passwords"]:
                password = secrets.token_urlsafe(9)
                user.set_password(password)
                user.save()
                self.stdout.write(f"user: {username:10} role: {role:8} password: {password}")
            else:
                self.stdout.write(f"user: {username:10} role: {role:8} (password unchanged)")
            member, _ = Member.objects.update_or_create(user=user, defaults={"organisation": organisation, "role": role})
            self._ensure_app_membership(organisation, member)

    def _ensure_app_membership(self, organisation: Organisation, member: Member) -> None:
        """The member's person in the service: found by email, or invited (active again if deactivated)."""
        client = service_client_for(
            client_id=organisation.api_client_id,
            client_secret=organisation.api_client_secret,
            role_keys=["app_admin"],
            app_customer_uuid=organisation.app_customer_uuid,
        ).organisation_admin
        email = member.user.email.lower()
        try:
            person = next((p for p in client.members() if p.email == email and p.active), None)
            if person is None:
                person = client.member_invite(email=email, full_name=member.user.get_full_name() or member.user.get_username())
        except ServiceError as exc:
            self.stderr.write(f"member {member.user.get_username()}: no person in the service ({exc.detail})")
            return
        if member.app_membership_uuid != person.uuid:
            member.app_membership_uuid = person.uuid
            member.save(update_fields=["app_membership_uuid"])
