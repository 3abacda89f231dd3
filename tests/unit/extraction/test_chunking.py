import itertools

from extraction.chunking import approx_tokens, chunk_text, split_sentences


def test_sentences_split_on_punctuation_and_paragraphs() -> None:
    text = "First one. Second one! Third?\n\nNew paragraph without stop"
    assert split_sentences(text) == [
        "First one.",
        "Second one!",
        "Third?",
        "New paragraph without stop",
    ]


def test_chunks_respect_token_bound_and_overlap() -> None:
    sentences = [f"Sentence number {i} talks about the Northdale region." for i in range(40)]
    chunks = chunk_text(" ".join(sentences), max_tokens=40, overlap_sentences=1)
    assert len(chunks) > 5
    assert all(c.tokens <= 40 for c in chunks)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    # consecutive chunks share their boundary sentence
    for a, b in itertools.pairwise(chunks):
        assert split_sentences(a.text)[-1] == split_sentences(b.text)[0]


def test_overlong_sentence_is_split_by_words() -> None:
    text = " ".join(["word"] * 500) + "."
    chunks = chunk_text(text, max_tokens=50, overlap_sentences=0)
    assert all(c.tokens <= 50 for c in chunks)
    assert sum(len(c.text.split()) for c in chunks) == 500


def test_approx_tokens_counts_words_and_punctuation() -> None:
    assert approx_tokens("Hello, world.") == 4


def test_one_megabyte_without_punctuation_chunks_in_linear_time() -> None:
    # No sentence end anywhere: every chunk comes from the long-sentence word split, which
    # used to recount a growing prefix per word. The bound is on correctness; time by hand.
    vocabulary = ["river", "Northdale", "council", "x" * 12, "b2", "the"]
    words = [vocabulary[i % len(vocabulary)] for i in range(1_000_000 // 7)]
    text = " ".join(words)
    assert len(text) >= 999_000
    chunks = chunk_text(text, max_tokens=200, overlap_sentences=1)
    assert all(c.tokens <= 200 for c in chunks)
    assert all(c.tokens == approx_tokens(c.text) for c in chunks)
    # Nearly full chunks, and every word once in order (a word run is never overlapped).
    assert sum(c.tokens for c in chunks) / len(chunks) > 195
    assert " ".join(c.text for c in chunks) == text


def test_word_split_recounts_runs_a_tokenizer_joins() -> None:
    # A tokenizer that counts a run as more than the sum of its words still gets its bound.
    def count(text: str) -> int:
        words = text.split()
        return len(words) + (len(words) // 4)

    chunks = chunk_text(" ".join(["w"] * 100), max_tokens=10, overlap_sentences=0, count=count)
    assert all(c.tokens <= 10 for c in chunks)
    assert sum(len(c.text.split()) for c in chunks) == 100
