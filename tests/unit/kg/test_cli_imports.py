"""What starting ``kg`` imports: the command line and its commands load without spaCy or
PyTorch, which cost seconds and hundreds of MB; a command that embeds or parses loads them
when it first does (``kg --help``, ``kg llm stop`` or a bad option never pay for them)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("spacy", "torch", "sentence_transformers", "transformers")


def test_importing_the_cli_loads_no_model_library() -> None:
    code = (
        "import json, sys; import kg.cli; "
        f"print(json.dumps([m for m in {list(HEAVY)!r} if m in sys.modules]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
