"""Version of the on-disk graph layout.

Bump it whenever node/relationship tables or their properties change; a store written with
another version refuses to open instead of being read with the wrong layout.
"""

SCHEMA_VERSION = "1"
