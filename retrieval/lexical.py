"""In-memory BM25 over chunk titles and texts, built once per graph version.

The graph preset ranks lexical candidates here instead of through the store's full-text index:
a Kùzu 0.11.3 FTS query cost ~15 ms per question plus a chunk fetch, occasionally failed
(``unordered_map::at``) or never returned when run from a worker thread. The index keeps raw
term counts (a sparse chunk x term matrix), so ``k1`` and ``b`` are query-time settings.
Documents carry their title, as the multihop bm25 baseline does: titles name the passage's
subject, which questions state. No stop-word list: the IDF already discounts common words.
"""

from __future__ import annotations

from core.bm25 import Bm25Index, idf, tokenize

__all__ = ["Bm25Index", "idf", "tokenize"]
