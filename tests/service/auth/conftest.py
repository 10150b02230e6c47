import time

import pytest

import vakt_limits.window


class Clock:
    """The time `vakt_limits.window` sees; the cache's own expiry keeps real time."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    # A hundredth of a second before a minute on the wall clock: a window tied to the
    # clock's minutes would start again a moment later.
    fake = Clock(time.time() // 60 * 60 + 60 - 0.01)
    monkeypatch.setattr(vakt_limits.window, "time", fake)
    return fake
