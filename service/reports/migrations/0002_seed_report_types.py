from django.db import migrations

TYPES = {
    "company_profile": ("Company profile: register facts, credit risk with its factors, active flags and key figures", ""),
    "credit_report": ("Credit report: the company profile plus payment remarks and collection cases", "credit_check"),
    "ownership_report": ("Ownership report: roles, ownership through holding chains and beneficial owners", ""),
}


def seed(apps, schema_editor):
    PartnerReportType = apps.get_model("service_reports", "PartnerReportType")
    for key, (description, role) in TYPES.items():
        PartnerReportType.objects.update_or_create(
            key=key, defaults={"description": description, "required_role_key": role}
        )


class Migration(migrations.Migration):
    dependencies = [("service_reports", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
