"""The range of a screening setup's own retention period for screening records, in years.

The AML directive's five years after the relationship ends, which art. 40 lets a member state
extend by at most five more where necessary. The service's check constraint, its API schemas
and its own check (`service.screening.config_models`, `config_schemas`, `records_retention`)
and the dashboard's setup page (`screening.views_setup`) all read these two: one rule.
"""

RETENTION_YEARS_MIN = 5
RETENTION_YEARS_MAX = 10
