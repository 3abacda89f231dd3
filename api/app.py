"""The FastAPI application factory.

The lifespan builds everything expensive once per process — container (store, embedder,
extractor), the opened store with its schema, the LLM client — and routes receive it through
``api.deps``. The embedded Kùzu store allows one writer process, so this server owns it while
it runs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version

import anyio
from fastapi import Depends, FastAPI

from api.deps import AppState
from api.docs import install_docs
from api.errors import install_error_handlers, problem_responses
from api.routers import cypher, documents, entities, explorer, jobs, query, runs, system
from api.security import BodyLimitMiddleware, key_digests, require_api_key
from api.services import ApiHost, Services
from core.errors import ConfigError
from llm.openai_compat import build_llm


def create_app(
    settings: ApiHost,
    *,
    container: Services | None = None,
    build: Callable[[], Services] | None = None,
) -> FastAPI:
    """The API. ``container``, when given, is used as it is — already opened, and closed by
    the caller (tests share one across servers); otherwise ``build`` (the shell's composition
    root) makes one, opened and closed here.
    """
    if container is None and build is None:
        raise ConfigError("create_app needs a container or a way to build one")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Loading the embedding model and opening the database block; keep the loop free.
        state = await anyio.to_thread.run_sync(_start, settings, container, build)
        app.state.kg = state
        jobs.install(app, state.container, settings)
        try:
            yield
        finally:
            # Sync jobs stop before the store they write to closes.
            await anyio.to_thread.run_sync(jobs.uninstall, app)
            del app.state.kg
            if container is None:
                await anyio.to_thread.run_sync(state.container.store.close)

    app = FastAPI(
        title="kg-first",
        summary="Knowledge-graph-first retrieval: documents, search, answers, graph exploration.",
        version=_version(),
        lifespan=lifespan,
        # No silent 307 to the path without its slash: "/v1/entities/" with an empty id would
        # land on the entity search, a different answer than the caller asked for, and the
        # redirect is in no route's documented responses. A path no route has is a 404.
        redirect_slashes=False,
        # Served by install_docs from local files: FastAPI's own pages load from a CDN.
        docs_url=None,
        redoc_url=None,
    )
    install_docs(app)
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.api.max_request_bytes)
    app.include_router(system.router)
    app.include_router(explorer.router)
    # The key check (and its place in the OpenAPI document) only where keys are configured:
    # a server without keys answers without one, so the schema must not say it needs one.
    keys = bool(key_digests(settings.api_keys))
    keyed = [Depends(require_api_key)] if keys else []
    # What any of these routes may answer besides its own statuses: a malformed body (400), a
    # policy refusal (403), a missing id or path (404), a body over the limit (413), invalid
    # input (422) and a store that fails (503); 401 with keys.
    common = problem_responses(400, 403, 404, 413, 422, 503, *((401,) if keys else ()))
    for router in (
        system.stats_router,
        documents.router,
        query.router,
        entities.router,
        cypher.router,
        jobs.router,
        runs.router,
    ):
        app.include_router(router, dependencies=keyed, responses=common)
    return app


def _start(
    settings: ApiHost, container: Services | None, build: Callable[[], Services] | None
) -> AppState:
    if container is None:
        if build is None:  # create_app refuses this; kept for the type checker
            raise ConfigError("create_app needs a container or a way to build one")
        container = build()
        container.store.open()
        container.store.init_schema()
    return AppState(
        settings=settings,
        container=container,
        llm=build_llm(settings.llm),
        key_digests=key_digests(settings.api_keys),
    )


def _version() -> str:
    try:
        return version("kg-first")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled checkout
        return "0.0.0"
