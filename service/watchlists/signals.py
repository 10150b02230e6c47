"""`watchlist_companies_changed`: sent after commit whenever a watchlist's companies change.

Screening subscribes to it. Keyword arguments (sender is the Watchlist model):
watchlist_uuid, app_customer_uuid, added_company_uuids: list[UUID] (only companies
really added, never those already there), removed_company_uuids: list[UUID]
(deleting a watchlist removes all its companies). Nothing is sent for a refused request
or a change that changed nothing.
"""

from django.dispatch import Signal

watchlist_companies_changed = Signal()
