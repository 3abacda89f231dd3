"""``kg bench ingest`` and ``kg bench scale``: what ingest and growth cost (rates, latency,
memory and disk against corpus size), beside the quality benchmarks of ``kg bench``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from core.errors import KgError
from kg.cli_support import err, fail, out
from kg.commands.bench import (
    CorpusOpt,
    StoreOpt,
    WorkDirOpt,
    _bars,
    _print_table,
    _store,
    _write_json,
    bench_app,
)
from kg.settings import get_settings


@bench_app.command()
def scale(
    corpus: CorpusOpt,
    factors: Annotated[
        str, typer.Option(help="Comma-separated multiples of the corpus, e.g. 1,2,5.")
    ] = "1,2,5",
    base_passages: Annotated[
        int | None, typer.Option(min=1, help="The first N passages as the 1x corpus.")
    ] = None,
    questions: Annotated[int, typer.Option(min=1, help="Timed questions per size.")] = 50,
    out_path: Annotated[Path, typer.Option("--out", help="Where to write JSON.")] = Path(
        "bench/results/scale.json"
    ),
    plot_path: Annotated[Path, typer.Option("--plot", help="Where to draw the plot.")] = Path(
        "bench/results/scale.png"
    ),
    work_dir: WorkDirOpt = None,
    store: StoreOpt = "embedded",
) -> None:
    """Cost against size: k x the corpus (the original plus name-shifted copies), each
    measured for ingest passages/s, graph and dense p50/p95, API RSS and disk per passage."""
    from bench import scale as sc

    try:
        wanted = tuple(int(f) for f in factors.split(",") if f.strip())
    except ValueError as exc:
        raise fail(f"--factors: whole numbers separated by commas, not {factors!r}") from exc
    config = sc.ScaleConfig(
        corpus,
        wanted,
        base_passages,
        questions,
        work_dir=work_dir,
        store=_store(store),
        partial=out_path,
    )
    try:
        with _bars() as hook:
            result = sc.run(config, get_settings(), hook)
    except KgError as exc:
        raise fail(str(exc)) from exc
    _write_json(out_path, result)
    sc.plot(result, plot_path)
    rows = [
        [
            str(r["factor"]),
            str(r["passages"]),
            str(r["ingest_passages_per_s"]),
            f"{r['graph']['p50_ms']} / {r['graph']['p95_ms']}",
            f"{r['dense']['p50_ms']} / {r['dense']['p95_ms']}",
            str(r.get("api_rss_mb", "-")),
            str(r.get("api_graph_kb_per_passage", "-")),
            str(r.get("disk_bytes_per_passage", "-")),
        ]
        for r in result["rows"]
    ]
    header = ["x", "passages", "ingest p/s", "graph p50/p95", "dense p50/p95", "RSS MB"]
    _print_table(f"scale on {store}", [*header, "graph KB/passage", "disk B/passage"], rows)
    out.print(f"wrote {out_path} and {plot_path}", highlight=False)


@bench_app.command()
def ingest(
    corpus: Annotated[Path, typer.Argument(help="Corpus file or folder to ingest.")],
    limit: Annotated[int | None, typer.Option(min=1, help="First N passages only.")] = None,
    out_path: Annotated[Path | None, typer.Option("--out", help="Where to write JSON.")] = None,
    profile: Annotated[Path | None, typer.Option(help="Write cProfile stats here.")] = None,
    store: Annotated[
        str,
        typer.Option(
            help="embedded (a temporary store), neo4j (KG_NEO4J__*'s database, EMPTIED first), "
            "or both comma-separated, measured one after the other with their rate ratio."
        ),
    ] = "embedded",
) -> None:
    """Ingest throughput against embedding alone, in a fresh store."""
    from bench.ingest import STORES, compare
    from bench.ingest import run as measure

    if not corpus.exists():
        raise fail(f"{corpus}: no such file or directory")
    stores = [s.strip() for s in store.split(",") if s.strip()]
    if not stores or any(s not in STORES for s in stores):
        raise fail(f"--store takes {', '.join(STORES)} or both, comma-separated")
    try:
        with err.status("ingesting (embedding first, then the full pipeline)"):
            if len(stores) > 1:
                both = compare(corpus, stores, limit=limit, profile=profile)
                if out_path is not None:
                    _write_json(out_path, both)
                rows = [
                    [f"{s} ingest_passages_per_s", str(r["ingest_passages_per_s"])]
                    for s, r in both["stores"].items()
                ]
                rows += [[k, str(v)] for k, v in both.items() if k != "stores"]
                _print_table(f"ingest of {corpus.name}", ["measure", "value"], rows)
                return
            result = measure(
                corpus, settings=get_settings(), limit=limit, profile=profile, store=stores[0]
            )
    except KgError as exc:
        raise fail(str(exc)) from exc
    if out_path is not None:
        _write_json(out_path, result)
    rows = [
        [key, str(result[key])]
        for key in (
            "passages",
            "chunks",
            "embed_seconds",
            "embed_passages_per_s",
            "ingest_seconds",
            "ingest_passages_per_s",
            "ratio",
            "target_ratio",
        )
        if key in result
    ]
    rows += [[key, str(value)] for key, value in result.get("budget", {}).items()]
    _print_table(f"ingest of {corpus.name}", ["measure", "value"], rows)
