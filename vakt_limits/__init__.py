"""Limits shared by the service and the dashboard: counting in the cache (`window`: the API rate
limit, failed client authentications, failed logins) and the range of a screening setup's own
retention period (`retention`).

A tiny package outside both `service/` and the dashboard apps, so both can import it without
crossing the service boundary: one rule for how a limit's window opens and closes, one for which
retention periods a setup may choose.
"""
