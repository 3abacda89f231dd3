"""HTTP API (FastAPI) and the graph explorer page."""
