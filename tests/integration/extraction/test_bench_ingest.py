"""bench.ingest on the demo corpus: one run gives both throughputs, their ratio and memory."""

from pathlib import Path

from bench.ingest import TARGET_RATIO, run
from extraction.config import IngestSettings
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.conftest import DEMO


def test_run_reports_both_rates_their_ratio_and_memory(
    embedder: SentenceTransformerEmbedder, tmp_path: Path
) -> None:
    profile = tmp_path / "ingest.pstats"
    result = run(DEMO, limit=6, profile=profile, embedder=embedder)
    assert result["passages"] == 6 and result["chunks"] >= 6
    assert result["counts"]["documents"] == 6
    assert result["embed_passages_per_s"] > 0 and result["ingest_passages_per_s"] > 0
    expected = result["ingest_passages_per_s"] / result["embed_passages_per_s"]
    assert abs(result["ratio"] - expected) < 0.01
    assert result["meets_target"] == (result["ratio"] >= TARGET_RATIO)
    assert result["peak_rss_mb"] > 100
    assert {"extract", "resolve", "write"} <= set(result["phases_s"])
    budget = result["budget"]
    # The model ran for the chunks and the entity names inside the ingest's wall time (names
    # on a second copy beside the chunks, so the two may overlap); idle is what is left.
    assert budget["model_chunks_s"] > 0 and budget["model_names_s"] > 0
    assert budget["model_chunks_s"] <= result["ingest_seconds"] + 0.01
    assert budget["model_names_s"] <= result["ingest_seconds"] + 0.01
    model = budget["model_chunks_s"] + budget["model_names_s"] + budget["model_count_tokens_s"]
    assert abs(budget["model_idle_s"] - max(0.0, result["ingest_seconds"] - model)) < 0.01
    allowed = result["embed_seconds"] * (1 / TARGET_RATIO - 1)
    assert abs(budget["allowed_beyond_embedding_s"] - allowed) < 0.01
    assert budget["embed_cpu_s"] > 0 and budget["ingest_cpu_s"] > 0
    embed_cpu, ingest_cpu = budget["embed_cpu_s"], budget["ingest_cpu_s"]
    share = (ingest_cpu - embed_cpu) / embed_cpu
    # The share is computed before the CPU seconds are rounded to 1 ms; on a tiny corpus the
    # model's CPU is a fraction of a second, so that rounding moves the quotient by up to
    # 0.0005 / e + 0.0005 i / e^2 (plus the share's own rounding).
    rounding = 0.0005 / embed_cpu + 0.0005 * (ingest_cpu + 0.0005) / embed_cpu**2 + 0.0005
    assert abs(budget["cpu_beyond_embedding"] - share) <= rounding * 1.01 + 1e-9
    assert profile.exists() and result["profile"]["top_by_own_time"]
    # CPU by thread: the main thread extracted and wrote (the feed, another thread, may end
    # before the sampler's first reading on so small a corpus).
    threads = result["threads_cpu_s"]
    assert threads["main"] > 0 and all(v > 0 for v in threads["others"])
    per_passage = 1000 * budget["ingest_cpu_s"] / result["passages"]
    # both figures are rounded: the ms a passage to 0.1, the CPU seconds to 1 ms (over 6)
    slack = 0.05 + 0.5 / result["passages"] + 1e-9
    assert abs(result["ingest_cpu_ms_per_passage"] - per_passage) <= slack


def test_names_beside_the_chunks_write_the_same_graph(
    embedder: SentenceTransformerEmbedder, tmp_path: Path
) -> None:
    """Names on a second copy of the model (the default) against names taking turns with the
    chunks on one: every document, chunk, entity, alias, relation, mention, SAME_AS edge and
    numeric fact the same, and every vector the same bit for bit."""
    results = {}
    for beside in (False, True):
        settings = Settings(
            data_dir=tmp_path / "unused", ingest=IngestSettings(names_beside_chunks=beside)
        )
        results[beside] = run(DEMO, settings=settings, limit=8, embedder=embedder, digest=True)
    assert results[True]["digest"] == results[False]["digest"]
    assert results[True]["digest"]["documents"] == 8 and results[True]["digest"]["vectors"] > 8
