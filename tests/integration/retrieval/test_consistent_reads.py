"""A request reads one graph version from its start to its end, whatever an ingest commits
meanwhile: here a real ingest commits a new document at every graph-version check a search
makes (a store wrapper is the seam that times the commits; the store, the ingest and the search
are the real ones)."""

from __future__ import annotations

from typing import Any

from extraction.loaders import SourceDocument
from graph_store import GraphStore
from kg.container import Container
from retrieval.read_model import InMemoryReadModel
from retrieval.search import Searcher

QUESTION = "Which observatory did the Varnholt survey map?"


def _doc(i: int, late: bool) -> SourceDocument:
    if late:  # matches the question better than anything else: found if seen
        text = f"The Varnholt survey mapped the observatory of Keld {i}. The Varnholt survey ..."
        return SourceDocument(f"/late/{i}.md", f"Varnholt Survey Observatory {i}", text)
    text = f"Orrin Mills {i} grows barley near Tessa Bay. The Varnholt survey passed by in {i}."
    return SourceDocument(f"/early/{i}.md", f"Orrin Mills {i}", text)


class CommitOnVersionCheck:
    """The real store; while armed, every ``graph_version()`` first commits one new document
    through a real ingest, so the version moves between any two checks of one request."""

    def __init__(self, container: Container) -> None:
        self._container = container
        self._store = container.store
        self.armed = False
        self.commits = 0

    def graph_version(self) -> str:
        if self.armed:
            self.commits += 1
            self._container.ingestor().ingest_documents([_doc(self.commits, late=True)])
        return self._store.graph_version()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_a_graph_search_answers_from_one_version_while_documents_commit(
    container: Container,
) -> None:
    preset = "graph"  # the preset that reads the in-memory index (dense/hybrid: the store's)
    container.ingestor().ingest_documents([_doc(i, late=False) for i in range(6)])
    hooked = CommitOnVersionCheck(container)
    store: GraphStore = hooked  # type: ignore[assignment]
    searcher = Searcher(
        store, container.embedder, container.settings.retrieval, InMemoryReadModel(store)
    )
    searcher.retrieve(QUESTION, k=4, preset=preset)  # the index of the first version, built

    hooked.armed = True
    got = searcher.retrieve(QUESTION, k=4, preset=preset)
    hooked.armed = False

    assert hooked.commits >= 1  # the graph moved on while the search ran
    # Answered from the one version it read first: the same as a search of that version now
    # (nothing commits any more), and every result is that version's chunk with its own text.
    again = searcher.retrieve(QUESTION, k=4, preset=preset)
    assert [(r.chunk_id, r.text) for r in got.results] == [
        (r.chunk_id, r.text) for r in again.results
    ]
    stored = {c.chunk_id: c for c in container.store.get_chunks([r.chunk_id for r in got.results])}
    for r in got.results:
        assert stored[r.chunk_id].text == r.text and stored[r.chunk_id].doc_title == r.doc_title


def test_readers_keep_the_last_index_while_an_ingest_writes(container: Container) -> None:
    """While batches commit, a reader is answered from the index already built (no projection
    read or build on its request); the ingest builds the new version's index before it ends."""
    model = container.read_model()  # the ingest's and the searcher's, as in the API
    assert isinstance(model, InMemoryReadModel)
    container.ingestor().ingest_documents([_doc(i, late=False) for i in range(3)])
    before = model.index()
    seen: list[tuple[str, str]] = []  # (version the reader got, version committed)

    def on_commit(phase: str, done: int, total: int) -> None:
        if phase == "write":
            seen.append((model.index().version, container.store.graph_version()))

    container.ingestor().ingest_documents(
        [_doc(i, late=True) for i in range(3)], progress=on_commit
    )

    assert seen and all(got == before.version != now for got, now in seen)
    after = model.index()
    assert after is not before and after.version == container.store.graph_version()
    assert len(after.chunk_ids) > len(before.chunk_ids)
