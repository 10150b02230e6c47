"""Who uploaded a batch job, on the job itself; jobs uploaded before are filled in from the audit log's
`screening_batch.create` records, which name the member."""

import django.db.models.deletion
from django.db import migrations, models


def uploaders_from_audit_log(apps, schema_editor):
    ScreeningBatch = apps.get_model("service_screening", "ScreeningBatch")
    AuditEvent = apps.get_model("service_audit", "AuditEvent")
    uploads = AuditEvent.objects.filter(
        action_key="screening_batch.create", object_type="screening_batch", actor_app_membership__isnull=False
    ).values_list("object_uuid", "actor_app_membership_id")
    for batch_uuid, membership_uuid in uploads.iterator():
        ScreeningBatch.objects.filter(uuid=batch_uuid, app_membership__isnull=True).update(app_membership_id=membership_uuid)


class Migration(migrations.Migration):

    dependencies = [
        ('service_auth', '0004_membership_active_flag_admin_role'),
        ('service_screening', '0011_resume_owed_screenings'),
        ('service_audit', '0001_audit_event'),
    ]

    operations = [
        migrations.AddField(
            model_name='screeningbatch',
            name='app_membership',
            field=models.ForeignKey(blank=True, help_text='the member who uploaded the file, as the caller named them (null: none named)', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='service_auth.appmembership'),
        ),
        migrations.RunPython(uploaders_from_audit_log, migrations.RunPython.noop),
    ]
