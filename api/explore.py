"""The store's explore queries, or a 501 problem where the adapter does not provide them."""

from __future__ import annotations

from api.errors import Problem
from graph_store import GraphStore
from graph_store.explore_port import GraphExplorer


def explore_port(store: GraphStore) -> GraphExplorer:
    if not isinstance(store, GraphExplorer):
        raise Problem(
            501, f"the {type(store).__name__} store does not implement the explore queries"
        )
    return store
