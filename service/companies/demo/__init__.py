"""Demo data: realistic, deterministic Norwegian companies for the dashboard and benchmarks.

generate.py writes them into the database (generate_demo); enheter_csv.py writes an
Enhetsregisteret-format CSV for the import benchmark (generate_demo --enheter-csv).
"""
