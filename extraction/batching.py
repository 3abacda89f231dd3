"""How an ingest splits its documents into write batches (one transaction each)."""

from __future__ import annotations

from extraction.config import IngestSettings


def write_batch_sizes(total: int, stored: int, cfg: IngestSettings) -> list[int]:
    """The sizes of the write batches for ``total`` documents into a store holding ``stored``.

    Each batch is ``batch_documents``, or ``batch_growth`` times what the store will hold
    when it starts if that is more, capped at ``batch_documents_max``: 10,000 documents
    into an empty store at 256, 0.25 and 2,048 make 15 commits (256 x 5, then 320, 400, ...)
    instead of 40, and 100,000 documents make 59 instead of 391."""
    sizes: list[int] = []
    left, held = total, max(stored, 0)
    while left > 0:
        grown = min(cfg.batch_documents_max, int(cfg.batch_growth * held))
        size = min(left, max(cfg.batch_documents, grown))
        sizes.append(size)
        left -= size
        held += size
    return sizes
