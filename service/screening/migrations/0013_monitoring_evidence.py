"""The evidence of screening of each monitoring, in a narrow table of its own (screening_evidence.py).

On PostgreSQL its pages keep room (fillfactor 70), so that a run's rewrite of a row stays on its
page (a HOT update: the primary key's index is not touched): every run rewrites thousands."""

import django.db.models.deletion
from django.db import migrations, models


def pages_with_room(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE service_screening_monitoringevidence SET (fillfactor = 70)")


class Migration(migrations.Migration):

    dependencies = [
        ('service_screening', '0012_batch_uploader'),
    ]

    operations = [
        migrations.CreateModel(
            name='MonitoringEvidence',
            fields=[
                ('monitoring', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='evidence', serialize=False, to='service_screening.entitymonitoring')),
                ('screened_against', models.JSONField(default=dict)),
            ],
        ),
        migrations.RunPython(pages_with_room, migrations.RunPython.noop),
    ]
