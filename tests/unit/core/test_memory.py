"""The process's heap settings (core/memory.py), in a child process: they are global."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from core.memory import return_large_blocks

_CHILD = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    from bench.rss import rss_mb
    from core.memory import return_large_blocks

    threshold = int(sys.argv[1])
    set_ = return_large_blocks(threshold)
    # A large block freed raises malloc's own threshold past the blocks below, which then
    # come from the heap and stay resident once freed.
    big = np.ones(8 << 20, dtype=np.uint8)
    del big
    # 80 MB in 2 MB blocks, each followed by a 100 KB array that stays (the heap cannot
    # shrink past it)
    kept, pins = [], []
    for _ in range(40):
        kept.append(np.ones(2 << 20, dtype=np.uint8))
        pins.append(np.ones(100_000, dtype=np.uint8))
    before = rss_mb()
    del kept
    print(json.dumps({"set": set_, "freed_mb": before - rss_mb()}))
    """
)


def _freed(threshold: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(threshold)], capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_blocks_over_the_threshold_go_back_to_the_os_when_freed() -> None:
    got = _freed(1 << 20)
    assert got["set"] is True
    assert got["freed_mb"] > 70  # all 80 MB, but for what the interpreter reuses


def test_zero_leaves_malloc_as_it_is() -> None:
    assert return_large_blocks(0) is False
    if sys.platform.startswith("linux"):  # the case the setting is for: blocks stay resident
        assert _freed(0)["freed_mb"] < 40
