from django.db import migrations, models


def seed_admin_role(apps, schema_editor):
    AppRole = apps.get_model("service_auth", "AppRole")
    AppRole.objects.get_or_create(
        key="app_admin", defaults={"description": "Organisation admin: members, API users and the audit log"}
    )


class Migration(migrations.Migration):
    dependencies = [("service_auth", "0003_api_user_credentials_version")]

    operations = [
        migrations.AddField(model_name="appmembership", name="active_flag", field=models.BooleanField(default=True)),
        migrations.RunPython(seed_admin_role, migrations.RunPython.noop),
    ]
