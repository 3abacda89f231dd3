"""Retrieval: embedder, hybrid search, graph expansion and ranking."""
