"""The reports' Norwegian formatting: the shared rules in `vakt_format.norwegian`
(the dashboard formats with the same module)."""

from vakt_format.norwegian import DASH, NBSP, amount, day, decimal, kroner, millions, percent  # noqa: F401
