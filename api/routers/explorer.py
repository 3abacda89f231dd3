"""The graph explorer page (``/explore``) and its assets.

cytoscape.js is served from the ``node_modules`` that ``npm ci`` fills at setup
(``tools/explorer``); it is never copied into the repository.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from api.deps import SettingsDep
from api.errors import Problem

STATIC = Path(__file__).resolve().parent.parent / "static"
_ASSETS = {
    "explore.js": "text/javascript",
    "explore-graph.js": "text/javascript",
    "explore-search.js": "text/javascript",
    "explore.css": "text/css",
}
_CYTOSCAPE = Path("cytoscape/dist/cytoscape.min.js")

# The page and its code hold no data; every data call it makes goes through /v1 (and its key).
router = APIRouter(include_in_schema=False)


# Scripts only from this server (no inline script), data only from its own API.
_PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
}


@router.get("/explore")
def explore_page() -> FileResponse:
    return FileResponse(STATIC / "explore.html", media_type="text/html", headers=_PAGE_HEADERS)


@router.get("/explore/assets/{name}")
def explore_asset(name: str) -> FileResponse:
    if name not in _ASSETS:
        raise Problem(404, f"no explorer asset {name!r}")
    return FileResponse(STATIC / name, media_type=_ASSETS[name])


@router.get("/explore/vendor/cytoscape.min.js")
def cytoscape(settings: SettingsDep) -> FileResponse:
    path = settings.api.explorer_node_modules / _CYTOSCAPE
    if not path.is_file():
        raise Problem(
            503,
            "cytoscape.js is not installed: run `make setup` (npm ci in tools/explorer) or set"
            " KG_API__EXPLORER_NODE_MODULES",
        )
    return FileResponse(path, media_type="text/javascript")
