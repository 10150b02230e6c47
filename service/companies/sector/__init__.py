"""Sector benchmarking: the sector-measure-yearly-aggregate-composite (spec §2.3, §4.3).

`parameters` resolves the query (identifiers, defaults, benchmark rules), `columns`
fetches every filtered company's value in one database pass, `statistics` holds
the pure arithmetic, `aggregate` assembles the composite and `schemas` its shape.
"""
