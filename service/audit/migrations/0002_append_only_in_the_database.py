"""The audit log is append-only in the database itself on PostgreSQL: a trigger refuses every
UPDATE and DELETE of a record, whoever sends it (the code already refuses them, but a session in
psql or a script with the application's credentials would not go through the code).

Not on SQLite, the embedded default for a laptop: Django empties its tables with DELETE between
tests, where PostgreSQL's TRUNCATE fires no row trigger."""

from django.db import migrations

CREATE = """
CREATE FUNCTION service_audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit records are append-only: % of audit record % refused', TG_OP, OLD.uuid
        USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER service_audit_append_only BEFORE UPDATE OR DELETE ON service_audit_auditevent
    FOR EACH ROW EXECUTE FUNCTION service_audit_refuse_change();
"""
DROP = """
DROP TRIGGER IF EXISTS service_audit_append_only ON service_audit_auditevent;
DROP FUNCTION IF EXISTS service_audit_refuse_change();
"""


def append_only(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, None)  # no parameters: its % are the trigger message's


def changeable(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, None)


class Migration(migrations.Migration):

    dependencies = [
        ("service_audit", "0001_audit_event"),
    ]

    operations = [
        migrations.RunPython(append_only, changeable),
    ]
