"""The /v1 routers, one module per concern."""
