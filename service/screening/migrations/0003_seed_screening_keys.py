from django.db import migrations


def seed(apps, schema_editor):
    from service.screening.catalog import screening_catalog_ensure

    screening_catalog_ensure(apps)


class Migration(migrations.Migration):
    dependencies = [("service_screening", "0002_screening_setup_and_monitoring")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
