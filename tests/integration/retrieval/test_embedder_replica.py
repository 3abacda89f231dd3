"""A replica of the torch embedder: the same vectors, bit for bit, from a model of its own."""

from retrieval.embedder import Replicable, SentenceTransformerEmbedder


def test_replica_gives_the_same_vectors_from_its_own_model(
    embedder: SentenceTransformerEmbedder,
) -> None:
    assert isinstance(embedder, Replicable)
    replica = embedder.replica()
    assert replica is embedder.replica()  # loaded once, kept
    texts = ["Kelby Marsh hospital", "A short name", "a passage " * 40]
    assert replica.embed(texts) == embedder.embed(texts)
    assert replica.count_tokens(texts[2]) == embedder.count_tokens(texts[2])
    assert replica._load() is not embedder._load()  # no tokenizer shared between threads
