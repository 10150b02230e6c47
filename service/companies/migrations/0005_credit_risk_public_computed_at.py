"""The public score's own time: set to the full one's for the rows there are (both were last
computed then), moved afterwards only when what the public score's caller sees changes."""

from django.db import migrations, models
from django.db.models import F


def fill(apps, schema_editor):
    apps.get_model("service_companies", "CompanyCreditRisk").objects.update(public_computed_at=F("computed_at"))


class Migration(migrations.Migration):
    dependencies = [("service_companies", "0004_credit_risk_public_score")]

    operations = [
        migrations.AddField(
            model_name="companycreditrisk",
            name="public_computed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
