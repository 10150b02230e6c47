"""Demo companies: realistic, deterministic Norwegian register data (development data, see service.demo).

generate.py writes them into the database (generate_demo); enheter_csv.py writes an
Enhetsregisteret-format CSV for the import benchmark (generate_demo --enheter-csv).
"""
