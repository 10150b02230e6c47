"""A record can be redacted once, when the records it is about are deleted at the end of their
retention period: its label emptied, the values of its before/after nulled (keys kept), the
time of the redaction set. On PostgreSQL the append-only trigger lets exactly that change
through and still refuses every other UPDATE and every DELETE."""

from django.db import migrations, models

REDACTABLE = r"""
CREATE FUNCTION service_audit_redacted(value jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN jsonb_typeof(value) = 'object'
                THEN COALESCE((SELECT jsonb_object_agg(key, 'null'::jsonb) FROM jsonb_each(value)), '{}'::jsonb)
           END
$$;
CREATE OR REPLACE FUNCTION service_audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.redacted_timestamp IS NULL AND NEW.redacted_timestamp IS NOT NULL
       AND NEW.object_label = ''
       AND NEW.before IS NOT DISTINCT FROM service_audit_redacted(OLD.before)
       AND NEW.after IS NOT DISTINCT FROM service_audit_redacted(OLD.after)
       AND (NEW.uuid, NEW.app_customer_id, NEW.actor_app_membership_id, NEW.actor_email, NEW.actor_api_user_id,
            NEW.actor_api_user_name, NEW.action_key, NEW.object_type, NEW.object_uuid, NEW.created_timestamp)
           IS NOT DISTINCT FROM
           (OLD.uuid, OLD.app_customer_id, OLD.actor_app_membership_id, OLD.actor_email, OLD.actor_api_user_id,
            OLD.actor_api_user_name, OLD.action_key, OLD.object_type, OLD.object_uuid, OLD.created_timestamp)
    THEN
        RETURN NEW;  -- a redaction, and nothing else
    END IF;
    RAISE EXCEPTION 'audit records are append-only: % of audit record % refused', TG_OP, OLD.uuid
        USING ERRCODE = 'insufficient_privilege';
END
$$;
"""
APPEND_ONLY = r"""
CREATE OR REPLACE FUNCTION service_audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit records are append-only: % of audit record % refused', TG_OP, OLD.uuid
        USING ERRCODE = 'insufficient_privilege';
END
$$;
DROP FUNCTION IF EXISTS service_audit_redacted(jsonb);
"""


def redactable(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(REDACTABLE, None)  # no parameters: its % are the trigger message's


def append_only(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(APPEND_ONLY, None)


class Migration(migrations.Migration):

    dependencies = [
        ("service_audit", "0002_append_only_in_the_database"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="redacted_timestamp",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(redactable, append_only),
    ]
