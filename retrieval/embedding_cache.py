"""A bounded in-process cache of text vectors in front of the embedder port, for reads.

An ask embeds its evidence again every time: the admitted chunks (near-duplicate check) and
every candidate sentence with its title (the offline reader's ranking). The same chunks come
back question after question, so most of that is work done before: one ``/v1/ask`` on the demo
spent 5.35 of 5.69 s in the model. The cache keeps each text's vector, keyed by a 16-byte
digest of the text (a text is its own identity: the same sentence under the same title gets
the same vector whichever chunk or question brought it), least recently used out first.

Only the texts a call has not seen go to the model, in one call. The onnx adapter's vector of
a text does not depend on the other texts of its call, so a cached vector is the one a fresh
call gives; torch's can differ in the last bit (at most 1.2e-7 per component) with the call's
padding, as they already do between two questions holding the same sentence. Ingest keeps the
uncached embedder (``inner``): its texts are seen once, and would only push out the reads'.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from retrieval.embedder import Embedder


def text_key(text: str) -> bytes:
    """16 bytes per text instead of the text itself: a chunk is a kilobyte or more."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class CachedEmbedder:
    """``Embedder`` with the vectors of the last ``max_entries`` texts kept (float32, 1.5 KB
    each for MiniLM's 384 dimensions: 20,000 entries are about 31 MB). ``max_entries`` 0
    turns the cache off. Safe across threads: two requests missing the same text both embed
    it, and the second one's vector replaces the first's (equal on onnx)."""

    def __init__(self, inner: Embedder, max_entries: int) -> None:
        self.inner = inner
        self._max = max_entries
        self._vectors: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def __len__(self) -> int:
        return len(self._vectors)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self._max <= 0 or not texts:
            return self.inner.embed(texts)
        keys = [text_key(t) for t in texts]
        found: dict[bytes, np.ndarray] = {}
        with self._lock:
            for key in keys:
                vector = self._vectors.get(key)
                if vector is not None:
                    self._vectors.move_to_end(key)
                    found[key] = vector
        # Each text missing once, in first-seen order: a call repeating a text embeds it once.
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in found}
        if missing:
            fresh = self.inner.embed(list(missing.values()))
            computed = {
                k: np.asarray(v, dtype=np.float32) for k, v in zip(missing, fresh, strict=True)
            }
            found.update(computed)
            self._keep(computed)
        with self._lock:
            self.hits += len(keys) - len(missing)
            self.misses += len(missing)
        rows: list[list[float]] = [found[k].tolist() for k in keys]
        return rows

    def clear(self) -> None:
        """Forget every vector (a benchmark timing searches as new questions)."""
        with self._lock:
            self._vectors.clear()

    def _keep(self, computed: dict[bytes, np.ndarray]) -> None:
        with self._lock:
            for key, vector in computed.items():
                self._vectors[key] = vector
                self._vectors.move_to_end(key)
            while len(self._vectors) > self._max:
                self._vectors.popitem(last=False)
