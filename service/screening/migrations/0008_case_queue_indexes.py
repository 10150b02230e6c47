"""Indexes of the case queue: cases in order of age per config; monitorings and inquiries by entity
(a page's related companies, the related-company filter, the cases of one entity); the counts per
status and hit kind from the index alone (it replaces the index on config and status)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('service_screening', '0007_screening_digest'),
    ]

    operations = [
        migrations.RemoveIndex(model_name='screeningcase', name='case_config_status'),
        migrations.AddIndex(
            model_name='screeningcase',
            index=models.Index(
                fields=['screening_config', 'case_status_key', 'pep_flag', 'sanction_flag'], name='case_config_status_flags'
            ),
        ),
        migrations.AddIndex(
            model_name='entityinquiry',
            index=models.Index(fields=['inquiry_entity_uuid'], name='inquiry_entity'),
        ),
        migrations.AddIndex(
            model_name='entitymonitoring',
            index=models.Index(fields=['screening_config', 'entity_uuid'], name='monitoring_config_entity'),
        ),
        migrations.AddIndex(
            model_name='screeningcase',
            index=models.Index(fields=['screening_config', 'created_timestamp', 'uuid'], name='case_config_created'),
        ),
    ]
