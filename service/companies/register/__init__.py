"""The company register's reads and endpoints: basic info, employment, auditor notes,
accounts, collection cases and roles (spec §4.2). The register's models, writes
(services.py) and importers live at the app's root and in importers/."""
