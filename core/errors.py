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
