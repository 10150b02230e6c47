"""Importers of register data into the company tables, one module per source format.

Each import streams its file, upserts on natural keys in atomic batches, rejects bad
rows with their line and reason, and returns an ImportResult (see result.py).
The management commands import_* are thin wrappers; docs/importers.md has the formats.
"""
