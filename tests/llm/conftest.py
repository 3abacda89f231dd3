"""The real local model for the tests of this folder: ``kg llm serve``'s server, started here
when none answers (the 0.5B model assembled once and cached under ``KG_LLM_TEST_DIR``, by
default ``.kg/llm`` in the checkout) and stopped at the end if this session started it. With
``KG_LLM__BASE_URL`` and ``KG_LLM__MODEL`` set, the server they name is used instead (a shared
one already serving).

Prompts are few and small: the whole folder is a few minutes of CPU on two cores.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from kg.llm_server import LlmServerSettings, base_url, healthy, serve, stop
from llm import LlmSettings
from llm.openai_compat import OpenAICompatClient

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def local_llm() -> Iterator[LlmSettings]:
    url, model = os.environ.get("KG_LLM__BASE_URL"), os.environ.get("KG_LLM__MODEL")
    if url and model:
        yield LlmSettings(base_url=url, model=model, timeout_s=600, max_retries=0)
        return
    data_dir = Path(os.environ.get("KG_LLM_TEST_DIR", ROOT / ".kg" / "llm"))
    data_dir.mkdir(parents=True, exist_ok=True)
    cfg = LlmServerSettings(model="qwen2.5-coder-0.5b")
    started = not healthy(cfg)
    name = serve(data_dir, cfg, print)
    try:
        # Generous fixed timeouts: the machine is shared, and a timeout here is not the test.
        yield LlmSettings(base_url=base_url(cfg), model=name, timeout_s=600, max_retries=0)
    finally:
        if started:
            stop(data_dir, cfg.port)


@pytest.fixture(scope="session")
def client(local_llm: LlmSettings) -> OpenAICompatClient:
    return OpenAICompatClient(local_llm)
