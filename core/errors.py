"""The project's own exception hierarchy.

Everything raised on purpose by kg-first derives from ``KgError`` so that the CLI and the
API can translate it into a clean one-line message / problem+json response in one place.
"""

from __future__ import annotations


class KgError(Exception):
    """Base class of every error kg-first raises on purpose."""


class ConfigError(KgError):
    """Settings are missing, contradictory or name something that cannot be loaded."""


class StoreError(KgError):
    """The graph store failed or refused an operation."""


class FulltextUnavailable(StoreError):
    """The store's full-text index is being rebuilt by another thread's write: the caller
    answers from its own copy of the last committed version (retrieval's in-memory BM25)
    rather than wait for the write or take no full-text results."""


class StoreUnavailable(StoreError):
    """The store cannot be reached now (server down, connection refused or timed out): the
    same request may succeed later, unlike a query the store refused."""


class StoreLocked(StoreUnavailable):
    """Another process holds the embedded store open (it allows one process at a time)."""


class SchemaVersionError(StoreError):
    """The store on disk was written with a different graph schema version."""


class NotFoundError(KgError):
    """A document, entity or chunk that was asked for does not exist."""


class InputError(KgError):
    """Bad user input: a file that cannot be read, parsed or is too large."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


class ExtractionError(KgError):
    """Entity/relation extraction failed for a chunk or document."""


class EmbeddingError(KgError):
    """The embedding model could not be loaded or failed to embed."""


class ReadOnlyViolation(KgError):
    """A query that was to run read-only (e.g. LLM-generated Cypher) would write or load files."""


class LlmError(KgError):
    """The LLM could not be reached or gave no usable answer (after the client's retries)."""

    def __init__(self, message: str, attempts: int = 1, tokens: tuple[int, int] = (0, 0)) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.tokens = tokens  # (prompt, completion) the server spent on a reply that was refused


class LlmCutOff(LlmError):
    """The reply hit its token cap (``finish_reason == "length"``): it is incomplete, and sending
    it back under the same cap would only be cut off again."""


class LlmBadReply(LlmError):
    """The reply does not have the shape that was asked for."""
