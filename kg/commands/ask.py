"""``kg ask``: answer a question from the graph through the agent loop, citing the evidence.

Uses the LLM when ``KG_LLM__BASE_URL`` and ``KG_LLM__MODEL`` are set, otherwise the offline loop
(extractive answer, said plainly). Prints the answer, citations, confidence, warnings and the
audit log's path; ``--json`` prints ``AgenticResult.summary()``.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape

from kg.cli_support import NO_DOCUMENTS, has_documents, opened, out


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
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Answer a question from the graph, citing the evidence."""
    from agents.orchestrator import answer
    from llm.openai_compat import build_llm

    with opened(existing=True) as c:
        if not has_documents(c):
            empty = NO_DOCUMENTS.format(data_dir=c.settings.data_dir)
            if as_json:
                print(json.dumps({"question": question, "citations": [], "message": empty}))
            else:
                out.print(empty, highlight=False, soft_wrap=True)
            return
        result = answer(
            c, question, llm=build_llm(c.settings.llm), max_iterations=max_iterations, k=k
        )
    if as_json:
        print(json.dumps(result.summary(), ensure_ascii=False))
        return
    out.print(f"[bold]Q:[/] {escape(question)}\n", highlight=False)
    out.print(escape(result.answer) + "\n", highlight=False)
    if result.findings and result.mode == "llm":
        out.print("[bold]Findings[/]")
        for f in result.findings:
            cites = " ".join(f"[{c}]" for c in f.citations)
            out.print(f"• {f.kind}: {escape(f.text)} [cyan]{escape(cites)}[/]", highlight=False)
        out.print()
    out.print("[bold]Citations[/]")
    for cite in result.citations:
        out.print(f"[cyan]\\[{cite.chunk_id}][/] {escape(cite.document_title)}", highlight=False)
    out.print(
        f"\n[bold]Confidence:[/] {result.confidence} — {escape(result.reason)}", highlight=False
    )
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
