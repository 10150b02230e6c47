"""Working arrays an object keeps beside its state: rebuilt, never pickled."""

from __future__ import annotations


class ScratchState:
    """Leaves the attributes named in `SCRATCH` out of pickles and calls `_scratch()` to make
    them again, both after construction (the subclass calls it) and after unpickling."""

    SCRATCH: tuple[str, ...] = ()

    def __getstate__(self) -> dict:
        return {slot: value for slot, value in self.__dict__.items() if slot not in self.SCRATCH}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._scratch()

    def _scratch(self) -> None:
        raise NotImplementedError
