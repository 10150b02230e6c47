"""A company's evidence of screening named the PEP lists too, though its own name is searched among
listed organisations only, which a PEP list has none of. Runs merge their lists into the row and
never drop one, so the PEP entries are taken out here, once."""

from django.db import migrations


def company_evidence_without_pep(apps, schema_editor):
    Category = apps.get_model("service_screening", "ScreeningListCategory")
    Evidence = apps.get_model("service_screening", "MonitoringEvidence")
    pep_keys = set(Category.objects.filter(list_type="pep").values_list("key", flat=True))
    rows = Evidence.objects.filter(monitoring__entity_key="company").only("monitoring_id", "screened_against")
    changed = []
    for row in rows.iterator(chunk_size=2000):
        kept = {key: entry for key, entry in row.screened_against.items() if key not in pep_keys}
        if kept != row.screened_against:
            row.screened_against = kept
            changed.append(row)
    Evidence.objects.bulk_update(changed, ["screened_against"], batch_size=2000)


class Migration(migrations.Migration):

    dependencies = [
        ("service_screening", "0013_monitoring_evidence"),
    ]

    operations = [
        migrations.RunPython(company_evidence_without_pep, migrations.RunPython.noop),
    ]
