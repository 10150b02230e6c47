from django.db import migrations

ROLE_KEYS = (
    ("aml", "AML: PEP and sanction screening"),
    ("credit_check", "Payment remarks and credit reports"),
    ("norwegian_mortgaged_movable_property_data", "Mortgaged movable property"),
    ("person_national_identification", "Personal national identification numbers"),
    ("norwegian_property_data", "Property data"),
    ("network_risk_score", "Network risk score"),
    ("bank_account_prevalidation", "Bank account register check"),
    ("adverse_event", "Adverse media"),
    ("fraud_risk_score", "Fraud risk score"),
)


def seed(apps, schema_editor):
    AppRole = apps.get_model("service_auth", "AppRole")
    for key, description in ROLE_KEYS:
        AppRole.objects.get_or_create(key=key, defaults={"description": description})


class Migration(migrations.Migration):
    dependencies = [("service_auth", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
