"""Composition root: builds store, read model, embedder and extractor from settings.

Nothing here does I/O; adapters connect when opened.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from core.errors import ConfigError
from core.memory import return_large_blocks
from extraction.facts import Extractor
from extraction.nlp import resolve_model
from extraction.pipeline import Ingestor
from extraction.spacy_rules import SpacyRuleExtractor
from graph_store import GraphStore
from graph_store.read_model import GraphReadModel
from kg.settings import Settings
from retrieval.embedder import Embedder, make_embedder
from retrieval.embedding_cache import CachedEmbedder
from retrieval.read_model import InMemoryReadModel
from retrieval.search import Searcher
from retrieval.topology_model import TopologyReadModel

log = logging.getLogger(__name__)


def build_embedder(settings: Settings) -> Embedder:
    cfg = settings.embedding
    return make_embedder(
        cfg.backend,
        cfg.model,
        cfg.batch_size,
        cfg.device,
        cfg.blas_threads,
        cfg.torch_threads,
        cfg.precision,
    )


def build_store(settings: Settings, embedder: Embedder) -> GraphStore:
    if settings.store == "embedded":
        from graph_store.kuzu.store import KuzuGraphStore

        return KuzuGraphStore(settings.embedded_path, embedder.dimension, embedder.model_name)
    if settings.store == "falkordb":
        from graph_store.falkordb.store import FalkorGraphStore

        return FalkorGraphStore(
            settings.falkordb_path,
            embedder.dimension,
            embedder.model_name,
            start_timeout_s=settings.falkordb.start_timeout_s,
            socket_timeout_s=settings.falkordb.socket_timeout_s,
        )
    if settings.store == "neo4j":
        try:
            from graph_store.neo4j.store import Neo4jGraphStore
        except ImportError as exc:  # pragma: no cover - shipped with the package
            raise ConfigError(f"the Neo4j adapter cannot be loaded: {exc}") from exc
        n = settings.neo4j
        store: GraphStore = Neo4jGraphStore(
            uri=n.uri,
            user=n.user,
            password=n.password,
            database=n.database,
            embedding_dim=embedder.dimension,
            embedding_model=embedder.model_name,
            max_retry_time_s=n.max_retry_time_s,
            connection_timeout_s=n.connection_timeout_s,
        )
        return store
    raise ConfigError(f"unknown store {settings.store!r}")  # pragma: no cover - Literal


def build_read_model(settings: Settings, store: GraphStore) -> GraphReadModel:
    """Neo4j with GDS does the graph work itself unless ``KG_NEO4J__READ_MODEL=memory``
    (with ``topology``, the default, its walk and paths run here over the topology alone);
    everywhere else (the embedded store, Neo4j without GDS) the graph is projected into
    memory. Asks Neo4j whether GDS is there, so the store must be open."""
    memory = InMemoryReadModel.from_settings(store, settings.retrieval)
    if settings.store != "neo4j":
        return memory
    from graph_store.neo4j.read_model import Neo4jReadModel
    from graph_store.neo4j.store import Neo4jGraphStore

    if settings.neo4j.read_model == "memory":
        return memory
    if isinstance(store, Neo4jGraphStore) and store.gds_available():
        if settings.neo4j.read_model == "database":
            return Neo4jReadModel(store)
        return TopologyReadModel(
            Neo4jReadModel(store),
            store.topology_data,
            walk_tolerance=settings.retrieval.ppr_tolerance,
            walk_prune=settings.retrieval.walk_prune,
            rebuild_gap=settings.neo4j.topology_rebuild_gap,
        )
    log.warning(
        "Neo4j has no Graph Data Science plugin: retrieval projects the whole graph into this "
        "process's memory (the in-memory read model)"
    )
    return memory


def build_extractor(settings: Settings) -> Extractor:
    """Rules always; rules plus the LLM when ``KG_LLM__BASE_URL`` and ``KG_LLM__MODEL`` are set
    (``KG_EXTRACTION__LLM_ENABLED=false`` keeps ingest on the rules alone)."""
    rules = SpacyRuleExtractor(trained_model=resolve_model(settings.extraction.spacy_model))
    if not (settings.extraction.llm_enabled and settings.llm.configured):
        return rules
    from extraction.llm_cache import LlmCache
    from extraction.llm_extractor import LlmExtractor
    from llm.journal import Journal
    from llm.openai_compat import build_llm

    client = build_llm(settings.llm)
    if client is None:
        return rules
    cache = LlmCache(settings.data_dir / "llm-cache")
    journal = Journal(settings.data_dir / "audit" / "extraction.jsonl")
    return LlmExtractor(rules, client, cache, settings.extraction, journal)


@dataclass
class Container:
    settings: Settings
    embedder: Embedder
    store: GraphStore
    extractor: Extractor

    def ingest_model(self) -> Embedder:
        """The model an ingest embeds with. Ingest embeds each text once: it goes past the
        reads' cache rather than empty it."""
        return self.embedder.inner if isinstance(self.embedder, CachedEmbedder) else self.embedder

    def ingestor(self) -> Ingestor:
        return Ingestor(
            self.store, self.ingest_model(), self.extractor, self.settings, self.read_model()
        )

    _searcher: Searcher | None = field(default=None, init=False, repr=False, compare=False)
    _model: tuple[GraphStore, GraphReadModel] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def read_model(self) -> GraphReadModel:
        """One read model per store (the in-memory one holds the projection); chosen on first
        use, when the store is open."""
        if self._model is None or self._model[0] is not self.store:
            self._model = (self.store, build_read_model(self.settings, self.store))
        return self._model[1]

    def searcher(self) -> Searcher:
        """One searcher per container: it holds the graph preset's in-memory index, which
        must outlive a request. Rebuilt if the store or embedder was swapped."""
        s = self._searcher
        if s is None or s.store is not self.store or s.embedder is not self.embedder:
            s = self._searcher = Searcher(
                self.store, self.embedder, self.settings.retrieval, self.read_model()
            )
        return s


def build(settings: Settings) -> Container:
    """The process's parts. First sets its mmap threshold
    (``RetrievalSettings.heap_mmap_threshold``), before anything large is allocated."""
    return_large_blocks(settings.retrieval.heap_mmap_threshold)
    embedder = CachedEmbedder(build_embedder(settings), settings.embedding.read_cache_entries)
    return Container(
        settings=settings,
        embedder=embedder,
        store=build_store(settings, embedder),
        extractor=build_extractor(settings),
    )
