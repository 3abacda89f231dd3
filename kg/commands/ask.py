"""``kg ask``: answer a question from the graph through the agent loop, citing the evidence.

Uses the LLM when ``KG_LLM__BASE_URL`` and ``KG_LLM__MODEL`` are set, otherwise the offline loop
(extractive answer, said plainly). ``--format text`` (the default) and ``markdown`` print the
analyst's report (answer, findings, sources by tier, gaps, confidence and score, epistemic
summary, iteration log, next questions) with warnings and the audit log's path; ``--format
json`` (or ``--json``) prints ``AgenticResult.summary()``, the report under ``report``. The
filters of ``kg search`` (``--source``, ``--type``, ``--from``, ``--to``) apply to every
retrieval of the loop.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape

from core.errors import KgError
from kg.cli_support import NO_DOCUMENTS, fail, has_documents, opened, out


def register(app: typer.Typer) -> None:
    app.command()(ask)


def ask(
    question: str,
    k: Annotated[
        int | None, typer.Option(min=1, max=50, help="chunks retrieved per sub-query")
    ] = None,
    max_iterations: Annotated[
        int | None, typer.Option("--max-iterations", min=1, max=10, help="cap on evidence rounds")
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", help="text, markdown or json (the report)")
    ] = "text",
    as_json: Annotated[bool, typer.Option("--json", help="same as --format json")] = False,
    source: Annotated[str | None, typer.Option(help="Only documents from this source.")] = None,
    doc_type: Annotated[str | None, typer.Option("--type", help="Only this document type.")] = None,
    date_from: Annotated[str | None, typer.Option("--from", help="Dated on/after (ISO).")] = None,
    date_to: Annotated[str | None, typer.Option("--to", help="Dated on/before (ISO).")] = None,
) -> None:
    """Answer a question from the graph: the analyst's report, citing the evidence."""
    from agents.orchestrator import answer
    from agents.report import Report, render
    from llm.openai_compat import build_llm
    from retrieval.filters import SearchFilters

    fmt = "json" if as_json else fmt.lower()
    if fmt not in ("text", "markdown", "json"):
        raise fail(f"unknown format {fmt!r}: use text, markdown or json")
    with opened(existing=True) as c:
        if not has_documents(c):
            empty = NO_DOCUMENTS.format(data_dir=c.settings.data_dir)
            if fmt == "json":
                print(json.dumps({"question": question, "citations": [], "message": empty}))
            else:
                out.print(empty, highlight=False, soft_wrap=True)
            return
        try:
            filters = SearchFilters(source, doc_type, date_from, date_to)
            result = answer(
                c,
                question,
                llm=build_llm(c.settings.llm),
                max_iterations=max_iterations,
                k=k,
                filters=filters,
            )
        except KgError as exc:
            raise fail(str(exc)) from exc
    if fmt == "json":
        print(json.dumps(result.summary(), ensure_ascii=False))
        return
    report = Report.model_validate(result.report)
    if fmt == "markdown":
        print(render(report, "markdown"), end="")
    else:
        out.print(escape(render(report, "text")), highlight=False)
    for warning in result.warnings:
        out.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
    mode = {
        "llm": f"LLM {result.model}",
        "llm-failed": f"LLM {result.model} failed; extractive answer",
    }.get(result.mode, "offline")
    out.print(
        f"[dim]{mode}; {result.iterations} iteration(s), {result.complexity}; "
        f"run {result.run_id}; audit log {escape(result.audit_log)}[/]",
        highlight=False,
    )
