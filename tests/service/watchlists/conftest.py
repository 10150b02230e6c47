from tests.service.watchlists.helpers import changes  # noqa: F401  (the signal recorder fixture)
