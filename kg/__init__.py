"""kg-first application shell: settings, errors, composition root and the `kg` CLI."""

__version__ = "0.1.0"
