"""The ``kg`` command line: init, ingest, delete, stats, search, ask, export."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from kg.container import Container, build
from kg.errors import KgError
from kg.settings import get_settings

# Library chatter (model loading bars) would bury our own output.
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

app = typer.Typer(help="kg-first: a knowledge-graph-first retrieval system.", no_args_is_help=True)
out = Console()
err = Console(stderr=True)


def _fail(message: str, code: int = 1) -> typer.Exit:
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


@contextmanager
def _opened(init: bool = False) -> Iterator[Container]:
    try:
        container = build(get_settings())
        with container.store:
            if init:
                container.store.init_schema()
            yield container
    except KgError as exc:
        raise _fail(str(exc)) from exc


@app.command()
def init(
    reset: Annotated[bool, typer.Option(help="Delete the embedded graph first.")] = False,
) -> None:
    """Create the graph schema and indexes (idempotent)."""
    settings = get_settings()
    if reset and settings.store == "embedded":
        for p in (settings.embedded_path, Path(f"{settings.embedded_path}.wal")):
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()
    with _opened(init=True) as c:
        out.print(f"schema ready ({c.settings.store} store)")


@app.command()
def ingest(paths: Annotated[list[Path], typer.Argument(help="Files or directories.")]) -> None:
    """Ingest files (md, txt, html, pdf, corpus JSON); unchanged documents are skipped."""
    with _opened(init=True) as c, _progress() as progress:
        tasks: dict[str, TaskID] = {}

        def hook(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = progress.add_task(phase, total=total)
            progress.update(tasks[phase], completed=done, total=total)

        report = c.ingestor().ingest_paths(paths, hook)
    for failure in report.failed:
        err.print(f"[red]error:[/] {failure}", highlight=False, soft_wrap=True)
    out.print(
        f"{report.documents_seen} documents from {report.files} files: {report.added} added, "
        f"{report.updated} updated, {report.unchanged} unchanged, {len(report.failed)} failed; "
        f"{report.chunks_written} chunks written in {report.seconds:.1f}s"
    )
    if report.failed and report.written + report.unchanged == 0:
        raise typer.Exit(1)


@app.command()
def delete(
    keys: Annotated[list[str], typer.Argument(help="Document ids, URIs or titles.")],
) -> None:
    """Delete documents with their chunks, mentions and orphaned entities."""
    missing = 0
    with _opened() as c:
        for key in keys:
            docs = c.store.find_documents(key)
            if not docs:
                err.print(f"[red]error:[/] no document matches {key!r}", highlight=False)
                missing += 1
            for d in docs:
                c.store.delete_document(d.id)
                out.print(f"deleted {d.id} ({d.title})", highlight=False)
        c.store.refresh_indexes()
    if missing == len(keys):
        raise typer.Exit(1)


@app.command()
def stats(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Counts of documents, chunks, entities, relations and aliases."""
    with _opened() as c:
        counts = c.store.counts().as_dict()
    if as_json:
        print(
            json.dumps(
                {k: counts[k] for k in ("documents", "chunks", "entities", "relations", "aliases")}
            )
        )
    else:
        for key, value in counts.items():
            out.print(f"{key:>10}: {value:,}")


@app.command()
def search(
    question: str,
    k: Annotated[int, typer.Option(min=1, max=100)] = 5,
    preset: Annotated[str | None, typer.Option(help="dense or hybrid.")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Retrieve the chunks that best answer a question."""
    from retrieval.search import Searcher

    with _opened() as c:
        searcher = Searcher(c.store, c.embedder, c.settings.retrieval.rrf_k)
        try:
            results = searcher.search(question, k, preset or c.settings.retrieval.preset)
        except KgError as exc:
            raise _fail(str(exc)) from exc
    if as_json:
        print(json.dumps([r.as_dict() for r in results], ensure_ascii=False))
        return
    for i, r in enumerate(results, 1):
        out.print(f"[bold]{i}. {r.doc_title}[/]  [dim]{r.chunk_id}  score={r.score:.4f}[/]")
        out.print(f"   {r.text[:300]}{'…' if len(r.text) > 300 else ''}", highlight=False)


@app.command()
def ask(
    question: str,
    k: Annotated[int, typer.Option(min=1, max=50)] = 6,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Answer a question from the graph, citing the evidence."""
    from agents.extractive import extractive_answer
    from retrieval.search import Searcher

    with _opened() as c:
        evidence = Searcher(c.store, c.embedder, c.settings.retrieval.rrf_k).search(
            question, k, c.settings.retrieval.preset
        )
        result = extractive_answer(question, evidence, c.embedder)
    if as_json:
        print(
            json.dumps(
                {
                    "answer": result.answer,
                    "citations": [
                        {"chunk_id": x.chunk_id, "document_title": x.document_title}
                        for x in result.citations
                    ],
                    "note": result.note,
                },
                ensure_ascii=False,
            )
        )
        return
    out.print(f"[bold]Q:[/] {question}\n", highlight=False)
    out.print(f"[dim]{result.note}[/]\n")
    for sentence, cid in result.sentences:
        out.print(f"• {escape(sentence)} [cyan]\\[{cid}][/]", highlight=False)
    out.print("\n[bold]Evidence[/]")
    for r in evidence:
        out.print(f"[cyan]\\[{r.chunk_id}][/] {escape(r.doc_title)}", highlight=False)


@app.command()
def export(
    fmt: Annotated[str, typer.Option("--format", help="graphml or json")] = "json",
    output: Annotated[
        Path | None, typer.Option("--out", help="File to write; stdout if omitted.")
    ] = None,
) -> None:
    """Export the entity/chunk graph."""
    from kg.export import to_graphml, to_json

    if fmt not in ("graphml", "json"):
        raise _fail(f"unknown format {fmt!r}: use graphml or json")
    with _opened() as c:
        data = c.store.export_graph()
    text = to_graphml(data) if fmt == "graphml" else to_json(data)
    if output:
        output.write_text(text, encoding="utf-8")
        out.print(f"wrote {output}")
    else:
        sys.stdout.write(text)


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description:>8}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    )


if __name__ == "__main__":  # pragma: no cover
    app()
