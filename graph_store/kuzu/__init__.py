"""Embedded adapter: Kùzu 0.11.3 on disk, with its Kùzu-only helpers."""
