"""Output shapes of the register endpoints, one module per resource group, each with the
functions that fill it from the selectors' model instances (see register/api.py for why
the endpoints write these dicts themselves)."""
