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
    IF TG_OP = 'UPDATE' AND OLD.redacted_timestamp IS NULL
       -- not back-dated before the record, nor dated ahead (minutes of clock skew with the app allowed)
       AND NEW.redacted_timestamp BETWEEN OLD.created_timestamp AND statement_timestamp() + interval '5 minutes'
       AND NEW.object_label = ''
       AND NEW.before IS NOT DISTINCT FROM service_audit_redacted(OLD.before)
       AND NEW.after IS NOT DISTINCT FROM service_audit_redacted(OLD.after)
       -- every other column as it was, a column added later included
       AND to_jsonb(NEW) - 'object_label' - 'before' - 'after' - 'redacted_timestamp'
           = to_jsonb(OLD) - 'object_label' - 'before' - 'after' - 'redacted_timestamp'
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
