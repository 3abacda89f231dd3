"""``/docs`` (Swagger UI) and ``/redoc`` served with their scripts from this server, not a CDN:
the API often runs where the browser has no internet (an offline machine, a closed network),
and FastAPI's default pages are then blank. The files come from the ``fastapi-offline`` package
(Swagger UI 5, which reads the OpenAPI 3.1 FastAPI writes)."""

from __future__ import annotations

from importlib.resources import files

from fastapi import FastAPI
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs-assets"
_OAUTH2_REDIRECT = "/docs/oauth2-redirect"


def install_docs(app: FastAPI) -> None:
    """Add the pages to an app created with ``docs_url=None, redoc_url=None``."""
    directory = str(files("fastapi_offline") / "static")
    app.mount(ASSETS, StaticFiles(directory=directory), name="docs-assets")
    openapi = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    def swagger() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi,
            title=f"{app.title} - API docs",
            oauth2_redirect_url=_OAUTH2_REDIRECT,
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon.png",
        )

    @app.get(_OAUTH2_REDIRECT, include_in_schema=False)
    def oauth2_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url=openapi,
            title=f"{app.title} - API reference",
            redoc_js_url=f"{ASSETS}/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS}/favicon.png",
            with_google_fonts=False,
        )
