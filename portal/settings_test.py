"""Settings of the test suite: portal.settings with a random secret key for this run.

Set before the settings load, in the environment, so processes a test starts share it;
a VAKT_SECRET_KEY given by hand wins.
"""

import os
import secrets

os.environ.setdefault("VAKT_SECRET_KEY", secrets.token_urlsafe(48))

from portal.settings import *  # noqa: E402, F403

# The real hasher is slow on purpose (about 0.3 s a password); the suite makes and checks
# passwords for hundreds of dashboard members and tests the dashboard, not the hash.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
