"""Giving freed heap back to the operating system after a large, short-lived build.

glibc's malloc serves mid-sized blocks from its heap and raises its mmap threshold after a
large block is freed, so the temporaries of a build (a graph read in batches, then turned into
arrays) leave free memory inside the heap that the process keeps resident. ``malloc_trim(0)``
returns it. Measured on the 5x 2Wiki topology (41 MB of arrays): the process held 104 MB more
after the build, 48 MB more after the trim.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import Any


@functools.cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def release_free_heap() -> bool:
    """Return the heap's free memory to the OS where the C library can (glibc); True if so."""
    libc = _libc()
    trim = getattr(libc, "malloc_trim", None) if libc is not None else None
    if trim is None:
        return False
    return bool(trim(0))
