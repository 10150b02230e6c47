"""Formatting shared by the service's PDF reports and the dashboard.

A tiny package with no dependency (standard library only) and outside both
`service/` and the dashboard apps, so both can import it without crossing the
service boundary: one set of Norwegian number rules, not a copy on each side.
"""
