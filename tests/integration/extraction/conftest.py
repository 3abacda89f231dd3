"""An ingest set-up whose LLM is the fake OpenAI-compatible server (the real openai SDK talks
to it over HTTP); store and embedder are the real ones."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from kg.container import Container, build
from kg.settings import Settings
from llm.config import LlmSettings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.fakes.openai_server import FakeOpenAIServer

OpenStore = Callable[[FakeOpenAIServer], Any]


def passage(request: dict[str, Any]) -> str:
    """The passage text the extractor put between the prompt's delimiters."""
    user = request["messages"][1]["content"]
    return str(user.split("<passage>", 1)[1].rsplit("</passage>", 1)[0]).strip()


def answer(entities: list[tuple[str, str]], relations: list[tuple[str, str, str]]) -> str:
    return json.dumps(
        {
            "entities": [
                {"name": n, "type": t, "description": f"{n} in one line.", "aliases": []}
                for n, t in entities
            ],
            "relations": [{"source": s, "type": r, "target": o} for s, r, o in relations],
        }
    )


@pytest.fixture()
def corpus(tmp_path: Path) -> Callable[[dict[str, str]], Path]:
    def write(docs: dict[str, str]) -> Path:
        folder = tmp_path / "docs"
        folder.mkdir(exist_ok=True)
        for name, text in docs.items():
            (folder / f"{name}.md").write_text(f"# {name}\n\n{text}\n", encoding="utf-8")
        return folder

    return write


@pytest.fixture()
def llm_container(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> Callable[[FakeOpenAIServer], Any]:
    """``with llm_container(server) as c``: a container whose LLM is ``server``; containers
    opened one after the other share the data dir, hence the LLM cache, not necessarily the
    graph (``fresh_graph=True`` starts an empty one)."""

    @contextmanager
    def open_container(server: FakeOpenAIServer, fresh_graph: bool = False) -> Iterator[Container]:
        data = tmp_path / "kg"
        if fresh_graph:
            for old in data.glob("graph.kuzu*"):
                if old.is_dir():
                    import shutil

                    shutil.rmtree(old)
                else:
                    old.unlink()
        settings = Settings(
            data_dir=data, llm=LlmSettings(base_url=server.base_url, model="fake-extractor")
        )
        c = build(settings)
        c.embedder = embedder
        c.store.open()
        c.store.init_schema()
        try:
            yield c
        finally:
            c.store.close()

    return open_container
