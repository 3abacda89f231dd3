"""Loaders, chunking, rule-based extraction, entity resolution and the ingest pipeline."""
