"""Settings for bench/bench_company_api.py only: the project's settings with a bench URLconf
(the project's URLs plus a minimal JSON view) and no rate limit. Never used in production."""

from portal.settings import *  # noqa: F403

ROOT_URLCONF = "bench.bench_company_api_urls"
VAKT_RATE_LIMIT_PER_MINUTE = 0
DEBUG = False
