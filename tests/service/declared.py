"""Is a live answer exactly the declared response shape? (keys, no more and no fewer)."""

from pydantic import TypeAdapter


def shape(value):
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(item) for item in value]
    return None


def assert_declared(schema_type, body):
    adapter = TypeAdapter(schema_type)
    declared = adapter.dump_python(adapter.validate_python(body), mode="json")
    # free-form objects (flag_context, factors' values) are compared by their own keys
    assert shape(body) == shape(declared)
