"""Sending a signal about a change already committed (the watchlist and register signals).

A receiver that raises must not turn the committed change into an error for its caller (an
API request's 500, an import that fails), nor keep the other receivers from running. Its work
is not done, so it is logged with what it was for; Django's dispatch logger has the traceback.
"""

from __future__ import annotations

import logging

from django.dispatch import Signal

logger = logging.getLogger(__name__)


def committed_change_send(signal: Signal, *, sender, about: str, **kwargs) -> None:
    """`about`: the change in words for the log ("watchlist <uuid>: 3 companies added, 0 removed")."""
    for receiver, result in signal.send_robust(sender=sender, **kwargs):
        if isinstance(result, Exception):
            logger.error(
                "%s failed after a committed change (%s); its work for it is not done: %r",
                getattr(receiver, "__qualname__", receiver),
                about,
                result,
            )
