"""Development data, not a service feature: `manage.py generate_demo` fills the database with
realistic, deterministic demo companies for `make run`, the dashboard and the benchmarks.

No endpoint, task or other service module imports from here; the service runs the same
without it. `companies/` writes the register (docs/importers.md, "Demo data").
"""
