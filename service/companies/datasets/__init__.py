"""The datasets API (`/datasets/v1/dataset/{name}`): filterable, streamed views of the register.

- `registry`: which datasets exist, their entities and the fields each entity exposes.
- `fields`: field types, how a query value is parsed for one and how a value is written out.
- `filters`: `<entity>.<field>=<OP>:<value>` query parameters to queryset filters.
- `selection`: `keep_only_fields` / `ignore_fields` to the entities and fields written.
- `query`: one SQL query per request, read in chunks, ordered by primary key.
- `formats`: json, jsonl and csv writers that stream rows as they come.
"""
