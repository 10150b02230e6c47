"""The embedded default's cache: Django's file cache, shared by every process of one machine
(the web server reads what the worker wrote), with an `incr` that behaves like Redis's.

Django's `FileBasedCache.incr` is a get and a set: the set gives the key the default timeout
(a one-second login lockout would last five minutes) and two processes incrementing at once
lose a count. Here `incr` keeps the key's expiry and is atomic across processes: it locks the
key's file, checks the file was not replaced meanwhile, and writes the new value beside it
before renaming it into place (a reader never sees half a file).
"""

from __future__ import annotations

import os
import pickle
import tempfile
import time
import zlib

from django.core.cache.backends.filebased import FileBasedCache
from django.core.files import locks


def _inode(path: str) -> int | None:
    try:
        return os.stat(path).st_ino
    except FileNotFoundError:
        return None


class SharedFileCache(FileBasedCache):
    def incr(self, key, delta=1, version=None):
        fname = self._key_to_file(key, version)
        while True:
            try:
                file = open(fname, "rb")
            except FileNotFoundError:
                raise ValueError(f"Key '{key}' not found") from None
            with file:
                locks.lock(file, locks.LOCK_EX)
                try:
                    if os.fstat(file.fileno()).st_ino != _inode(fname):
                        continue  # another process replaced the file while we waited: read the new one
                    expiry = pickle.load(file)
                    if expiry is not None and expiry < time.time():
                        raise ValueError(f"Key '{key}' not found")
                    value = pickle.loads(zlib.decompress(file.read())) + delta
                    self._replace(fname, expiry, value)
                    return value
                finally:
                    locks.unlock(file)

    def _replace(self, fname: str, expiry: float | None, value) -> None:
        fd, tmp_path = tempfile.mkstemp(dir=self._dir)
        try:
            with open(fd, "wb") as file:
                file.write(pickle.dumps(expiry, self.pickle_protocol))
                file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol)))
            os.replace(tmp_path, fname)
        except BaseException:
            if os.path.exists(tmp_path):
                os.remove(tmp_path)
            raise
