"""The public credit risk score and class: the model's score without the role-bound factors.

A caller without credit_check gets these instead of risk_score/risk_class (docs/analysis.md,
"Factors behind a role"). Stored beside the full ones so dataset filters on the score run on
the public one. Existing rows are filled from their stored factors by the model's own
function (credit_risk.public_score_and_class); the columns become NOT NULL only after that,
so a row left unfilled would stop the migration rather than keep a wrong score.
"""

from collections import defaultdict

from django.db import migrations, models

from service.companies.analysis.credit_risk import public_score_and_class

BATCH = 2000


def public_scores_fill(apps, schema_editor):
    CompanyCreditRisk = apps.get_model("service_companies", "CompanyCreditRisk")
    rows = CompanyCreditRisk.objects.order_by("pk").values_list("pk", "factors")
    batch = []
    for row in rows.iterator(chunk_size=BATCH):
        batch.append(row)
        if len(batch) == BATCH:
            _fill(CompanyCreditRisk, batch)
            batch = []
    _fill(CompanyCreditRisk, batch)


def _fill(CompanyCreditRisk, batch):
    # One UPDATE per distinct (score, class) of the batch, not one per row: most companies share a few.
    by_score = defaultdict(list)
    for pk, factors in batch:
        by_score[public_score_and_class(factors)].append(pk)
    for (score, risk_class), pks in by_score.items():
        CompanyCreditRisk.objects.filter(pk__in=pks).update(public_risk_score=score, public_risk_class=risk_class)


class Migration(migrations.Migration):
    dependencies = [
        ("service_companies", "0003_company_org_nr_c_collation"),
    ]

    operations = [
        migrations.AddField(
            model_name="companycreditrisk",
            name="public_risk_score",
            field=models.DecimalField(decimal_places=1, max_digits=5, null=True),
        ),
        migrations.AddField(
            model_name="companycreditrisk",
            name="public_risk_class",
            field=models.CharField(max_length=16, null=True),
        ),
        migrations.RunPython(public_scores_fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="companycreditrisk",
            name="public_risk_score",
            field=models.DecimalField(decimal_places=1, max_digits=5),
        ),
        migrations.AlterField(
            model_name="companycreditrisk",
            name="public_risk_class",
            field=models.CharField(max_length=16),
        ),
    ]
