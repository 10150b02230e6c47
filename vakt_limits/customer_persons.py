"""How long a customer person's customer reference may be (the organisation's own number for the
customer). The service's column, its API schemas and its check (`service.screening.config_models`,
`person_schemas`, `person_services`, the file import) and the dashboard's forms
(`screening.customer_person_form`) all read it: one rule."""

CUSTOMER_REFERENCE_MAX = 100
