"""The ``kg`` command line: init, ingest, delete, stats, search, export; more in ``kg.commands``."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import TaskID

from core.errors import KgError
from kg import holder
from kg.cli_support import NO_DOCUMENTS, err, fail, has_documents, opened, out, progress
from kg.commands import register_all
from kg.settings import get_settings

app = typer.Typer(help="kg-first: a knowledge-graph-first retrieval system.", no_args_is_help=True)


@app.callback()
def _settings_first() -> None:
    """Read the settings before any command, so that an invalid ``KG_*`` value is one
    ``error:`` line whatever the command (``kg serve`` included)."""
    try:
        get_settings()
    except KgError as exc:
        raise fail(str(exc)) from exc


@app.command()
def init(
    reset: Annotated[
        bool,
        typer.Option(
            help="Delete the graph first (embedded: its files; Neo4j: every node, index, "
            "constraint and kg-first GDS graph of the database)."
        ),
    ] = False,
) -> None:
    """Create the graph schema and indexes (idempotent)."""
    settings = get_settings()
    if reset and settings.store == "embedded":
        # Its files would be deleted under the process that has them open.
        if held := holder.current(settings.data_dir):
            raise fail(held.advice(settings.data_dir))
        for p in (settings.embedded_path, Path(f"{settings.embedded_path}.wal")):
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()
    with opened(init=True, reset=reset) as c:
        out.print(f"schema ready ({c.settings.store} store)")


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or directories.")],
    progress_json: Annotated[
        bool,
        typer.Option(
            "--progress-json",
            help='Progress as one JSON line per step on stderr, {"phase", "done", "total"}, '
            'instead of bars; a "write" line comes once its documents are committed.',
        ),
    ] = False,
) -> None:
    """Ingest files (md, txt, html, pdf, corpus JSON); unchanged documents are skipped."""
    from extraction.loaders import discover

    # Folders are expanded here so that a README left out is said, not silent.
    skipped: list[Path] = []
    files, missing = discover(list(paths), get_settings().ingest.include_readmes, skipped)
    for readme in skipped:
        out.print(
            f"skipped: {readme}: README (KG_INGEST__INCLUDE_READMES=true ingests it)",
            highlight=False,
            soft_wrap=True,
        )
    with opened(init=True) as c, progress(disable=progress_json) as bars:
        tasks: dict[str, TaskID] = {}

        def hook(phase: str, done: int, total: int) -> None:
            if progress_json:
                # A script that follows the ingest (a test that kills it after a commit) reads
                # these as they come, so each line is flushed at once.
                line = json.dumps({"phase": phase, "done": done, "total": total})
                print(line, file=sys.stderr, flush=True)
                return
            if phase not in tasks:
                tasks[phase] = bars.add_task(phase, total=total)
            bars.update(tasks[phase], completed=done, total=total)

        report = c.ingestor().ingest_paths(files, hook)
    report.failed[:0] = missing
    for failure in report.failed:
        err.print(f"[red]error:[/] {failure}", highlight=False, soft_wrap=True)
    out.print(
        f"{report.documents_seen} documents from {report.files} files: {report.added} added, "
        f"{report.updated} updated, {report.unchanged} unchanged, {len(report.failed)} failed; "
        f"{report.chunks_written} chunks written in {report.seconds:.1f}s"
    )
    if report.llm_chunks or report.llm_cached:
        line = (
            f"LLM extraction: {report.llm_chunks} chunk(s) asked in {report.llm_requests} "
            f"request(s) ({report.llm_retries} retries), {report.llm_cached} from the cache, "
            f"{report.tokens_in} tokens in / {report.tokens_out} out; "
            f"{report.llm_failed_chunks} chunk(s) failed and kept their rule facts"
        )
        (err if report.llm_failed_chunks else out).print(line, highlight=False)
    if report.failed and report.written + report.unchanged == 0:
        raise typer.Exit(1)


@app.command()
def delete(
    keys: Annotated[list[str], typer.Argument(help="Document ids, URIs or titles.")],
) -> None:
    """Delete documents with their chunks, mentions and orphaned entities."""
    missing = 0
    with opened(existing=True) as c:
        for key in keys:
            docs = c.store.find_documents(key)
            if not docs:
                err.print(f"[red]error:[/] no document matches {key!r}", highlight=False)
                missing += 1
            for d in docs:
                c.store.delete_document(d.id)
                out.print(f"deleted {d.id} ({d.title})", highlight=False)
        c.store.refresh_indexes()
        c.read_model().refresh_authority()
    if missing == len(keys):
        raise typer.Exit(1)


@app.command()
def stats(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Counts of documents, chunks, entities, relations and aliases."""
    with opened(existing=True) as c:
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
    preset: Annotated[
        str | None, typer.Option(help="dense, hybrid or graph (default from settings).")
    ] = None,
    source: Annotated[
        str | None,
        typer.Option(
            help="Only documents from this source: a document's 'Source:' line, else the folder "
            "it was ingested from (a folder may be given relative)."
        ),
    ] = None,
    doc_type: Annotated[str | None, typer.Option("--type", help="Only this document type.")] = None,
    date_from: Annotated[str | None, typer.Option("--from", help="Dated on/after (ISO).")] = None,
    date_to: Annotated[str | None, typer.Option("--to", help="Dated on/before (ISO).")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Retrieve the chunks that best answer a question, with scores and graph paths."""
    from retrieval.filters import SearchFilters, check_known

    with opened(existing=True) as c:
        if not has_documents(c):
            empty = NO_DOCUMENTS.format(data_dir=c.settings.data_dir)
            if as_json:
                print(json.dumps({"question": question, "results": [], "message": empty}))
            else:
                out.print(empty, highlight=False, soft_wrap=True)
            return
        folder = Path(source).expanduser() if source else None
        try:
            filters = SearchFilters(
                source,
                doc_type,
                date_from,
                date_to,
                str(folder.resolve()) if folder and folder.is_dir() else None,
            )
            got = c.searcher().retrieve(question, k, preset, filters)
            if not got.results and filters.active:
                check_known(filters, c.store)
        except KgError as exc:
            raise fail(str(exc)) from exc
    if as_json:
        print(json.dumps(got.as_dict(), ensure_ascii=False))
        return
    if not got.results:
        out.print("no results" + (" for these filters" if filters.active else ""))
    if got.linked:
        names = ", ".join(f"{x.name} ({x.method})" for x in got.linked[:5])
        out.print(f"[dim]linked: {escape(names)}[/]")
    for i, r in enumerate(got.results, 1):
        out.print(f"[bold]{i}. {escape(r.doc_title)}[/]  [dim]{r.chunk_id}  score={r.score:.4f}[/]")
        out.print(f"   {escape(r.text[:300])}{'…' if len(r.text) > 300 else ''}", highlight=False)
        if len(r.path) > 1:
            out.print(f"   [cyan]path:[/] {escape(' ⇒ '.join(r.path))}", highlight=False)


@app.command()
def export(
    fmt: Annotated[str, typer.Option("--format", help="graphml or json")] = "json",
    output: Annotated[
        Path | None, typer.Option("--out", help="File to write; stdout if omitted.")
    ] = None,
) -> None:
    """Export the entity/chunk graph."""
    from graph_store.explore_port import GraphExplorer
    from kg.export import to_graphml, to_json

    if fmt not in ("graphml", "json"):
        raise fail(f"unknown format {fmt!r}: use graphml or json")
    with opened(existing=True) as c:
        data = c.store.export_graph()
        details = c.store.graph_details() if isinstance(c.store, GraphExplorer) else None
    text = to_graphml(data, details) if fmt == "graphml" else to_json(data, details)
    if output:
        output.write_text(text, encoding="utf-8")
        out.print(f"wrote {output}")
    else:
        sys.stdout.write(text)


register_all(app)

if __name__ == "__main__":  # pragma: no cover
    app()
