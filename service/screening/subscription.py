"""Placeholder until the watchlists app is merged: configs follow their watchlists here."""


def config_resync_on_commit(*, config) -> None:
    return None
