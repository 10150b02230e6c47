"""Counting in the cache, shared by the service (API rate limit, failed client authentications)
and the dashboard (failed logins).

A tiny package outside both `service/` and the dashboard apps, so both can import it without
crossing the service boundary: one rule for how a limit's window opens and closes.
"""
