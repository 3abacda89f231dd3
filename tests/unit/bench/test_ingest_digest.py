"""The ingest digest: blind to when a graph was written, not to what it holds."""

from datetime import UTC, datetime

from bench.ingest_digest import GraphRecorder
from graph_schema import Alias, Chunk, Document, DocumentGraph, Entity


def _graph(when: datetime, vector: float = 0.25, alias: str = "KM") -> DocumentGraph:
    document = Document(
        id="d1",
        uri="mem://d1",
        title="Kelby Marsh",
        content_hash="h",
        extractor_version="v",
        ingested_at=when,
    )
    chunk = Chunk(
        id="c1",
        doc_id="d1",
        index=0,
        text="Kelby Marsh (KM) is a fen.",
        tokens=8,
        content_hash="ch",
        embedding=(vector, 0.5),
    )
    entity = Entity(id="e1", name="Kelby Marsh", embedding=(0.1, 0.2))
    return DocumentGraph(
        document=document,
        chunks=(chunk,),
        entities=(entity,),
        aliases=(Alias(name=alias, normalized=alias.lower(), entity_id="e1", method="acronym"),),
    )


def _digest(*graphs: DocumentGraph) -> dict[str, object]:
    recorder = GraphRecorder()
    recorder.record(graphs)
    return recorder.digest()


def test_the_same_graph_written_later_has_the_same_digest() -> None:
    first = _digest(_graph(datetime(2020, 1, 1, tzinfo=UTC)))
    assert first == _digest(_graph(datetime.now(UTC)))
    assert first["documents"] == 1 and first["vectors"] == 2


def test_a_changed_vector_or_alias_changes_its_half() -> None:
    when = datetime(2020, 1, 1, tzinfo=UTC)
    base = _digest(_graph(when))
    nudged = _digest(_graph(when, vector=0.25 + 1e-7))
    assert nudged["vectors_sha256"] != base["vectors_sha256"]
    assert nudged["graph_sha256"] == base["graph_sha256"]
    renamed = _digest(_graph(when, alias="K.M."))
    assert renamed["graph_sha256"] != base["graph_sha256"]
    assert renamed["vectors_sha256"] == base["vectors_sha256"]
