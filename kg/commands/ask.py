"""``kg ask``: answer a question from the graph, citing the evidence."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape

from kg.cli_support import opened, out


def register(app: typer.Typer) -> None:
    app.command()(ask)


def ask(
    question: str,
    k: Annotated[int, typer.Option(min=1, max=50)] = 6,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Answer a question from the graph, citing the evidence."""
    from agents.extractive import extractive_answer

    with opened() as c:
        evidence = c.searcher().search(question, k)
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
