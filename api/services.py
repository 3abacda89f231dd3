"""What the API needs from the application shell, as ports: the API sits below the shell
(``kg``), which assembles the settings and builds the services and hands them in."""

from __future__ import annotations

from typing import Protocol

from agents.config import AgentHost
from api.config import ApiSettings
from extraction.config import IngestSettings
from extraction.pipeline import Ingestor
from extraction.sync_config import SyncSettings
from graph_store import GraphStore
from retrieval.config import RetrievalSettings
from retrieval.embedder import Embedder
from retrieval.search import Searcher


class ApiHost(AgentHost, Protocol):
    """The assembled settings, as far as the API and the agents it runs read them."""

    @property
    def api(self) -> ApiSettings: ...
    @property
    def ingest(self) -> IngestSettings: ...
    @property
    def retrieval(self) -> RetrievalSettings: ...
    @property
    def sync(self) -> SyncSettings: ...
    @property
    def store(self) -> str: ...


class Services(Protocol):
    """The opened services (the shell's ``Container``)."""

    @property
    def settings(self) -> ApiHost: ...
    @property
    def store(self) -> GraphStore: ...
    @property
    def embedder(self) -> Embedder: ...

    def ingestor(self) -> Ingestor: ...
    def searcher(self) -> Searcher: ...
