from extraction.batching import write_batch_sizes
from extraction.config import IngestSettings


def test_batches_cover_every_document_once() -> None:
    cfg = IngestSettings(batch_documents=10, batch_growth=0.5, batch_documents_max=40)
    for total in (0, 1, 9, 10, 11, 137, 5_000):
        for stored in (0, 7, 300):
            sizes = write_batch_sizes(total, stored, cfg)
            assert sum(sizes) == total
            assert all(s > 0 for s in sizes)


def test_batches_grow_with_the_store_up_to_the_cap() -> None:
    cfg = IngestSettings(batch_documents=10, batch_growth=0.5, batch_documents_max=40)
    # 10 while half the store is under 10, then half of it, then the cap.
    assert write_batch_sizes(200, 0, cfg) == [10, 10, 10, 15, 22, 33, 40, 40, 20]
    # A store that already holds 1,000 documents starts at the cap.
    assert write_batch_sizes(100, 1_000, cfg) == [40, 40, 20]


def test_no_growth_keeps_fixed_batches() -> None:
    cfg = IngestSettings(batch_documents=25, batch_growth=0.0)
    assert write_batch_sizes(110, 10_000, cfg) == [25, 25, 25, 25, 10]


def test_a_fixed_size_above_the_cap_wins() -> None:
    cfg = IngestSettings(batch_documents=500, batch_growth=1.0, batch_documents_max=100)
    assert write_batch_sizes(1_200, 0, cfg) == [500, 500, 200]
