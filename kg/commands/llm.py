"""``kg llm serve|stop|status``: the local LLM server the project starts itself."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from kg.cli_support import err, fail, out
from kg.settings import get_settings

llm_app = typer.Typer(help="The local LLM server (xllamacpp, a model assembled from PyPI).")


def register(app: typer.Typer) -> None:
    app.add_typer(llm_app, name="llm")


@llm_app.command("serve")
def serve(
    model: Annotated[
        str | None,
        typer.Option(help="qwen2.5-coder-0.5b or qwen2.5-coder-1.5b [KG_LLM_SERVER__MODEL]."),
    ] = None,
    port: Annotated[int | None, typer.Option(help="[KG_LLM_SERVER__PORT]")] = None,
    threads: Annotated[int | None, typer.Option(help="[KG_LLM_SERVER__THREADS]")] = None,
    n_ctx: Annotated[int | None, typer.Option(help="Per slot [KG_LLM_SERVER__N_CTX]")] = None,
) -> None:
    """Assemble and verify the model (once), start the server, print the settings to use."""
    from core.errors import KgError
    from kg.llm_server import LlmServerSettings, base_url
    from kg.llm_server import serve as start

    settings = get_settings()
    update = {"model": model, "port": port, "threads": threads, "n_ctx": n_ctx}
    try:
        cfg = LlmServerSettings.model_validate(
            {**settings.llm_server.model_dump(), **{k: v for k, v in update.items() if v}}
        )
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        name = start(settings.data_dir, cfg, lambda line: err.print(line, highlight=False))
    except (KgError, ValueError) as exc:
        raise fail(str(exc)) from exc
    out.print(f"export KG_LLM__BASE_URL={base_url(cfg)}", highlight=False)
    out.print(f"export KG_LLM__MODEL={name}", highlight=False)


@llm_app.command("stop")
def stop(port: Annotated[int | None, typer.Option(help="[KG_LLM_SERVER__PORT]")] = None) -> None:
    """Stop the server started from this data dir on the port."""
    from kg.llm_server import stop as halt

    settings = get_settings()
    stopped = halt(settings.data_dir, port or settings.llm_server.port)
    out.print("stopped" if stopped else "not running")


@llm_app.command("status")
def status(
    port: Annotated[int | None, typer.Option(help="[KG_LLM_SERVER__PORT]")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Whether the server on the port answers, its process and model."""
    from kg.llm_server import status as state

    settings = get_settings()
    cfg = settings.llm_server.model_copy(update={"port": port or settings.llm_server.port})
    info = state(settings.data_dir, cfg)
    if as_json:
        out.print_json(json.dumps(info))
    else:
        out.print(
            f"{'running' if info['running'] else 'not running'}; model {info['model']}; "
            f"pid {info['pid']}; {info['base_url']}",
            highlight=False,
        )
    if not info["running"]:
        raise typer.Exit(1)
