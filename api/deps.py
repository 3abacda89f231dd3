"""What routes receive: the state built once by the lifespan, as ``Annotated`` dependencies."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request

from agents.llm import LLMClient
from api.services import ApiHost, Services
from core.errors import ConfigError
from graph_store import GraphStore
from retrieval.embedder import Embedder


@dataclass
class AppState:
    """Built once per process by the lifespan; routes only read it."""

    settings: ApiHost
    container: Services
    llm: LLMClient | None
    # SHA-256 of each accepted key: compared in constant time, and the keys themselves are not
    # kept where a debugging dump of the state would print them.
    key_digests: tuple[bytes, ...] = field(default=(), repr=False)


def get_state(request: Request) -> AppState:
    state = getattr(request.app.state, "kg", None)
    if not isinstance(state, AppState):
        raise ConfigError("the API was started without its lifespan (no AppState)")
    return state


StateDep = Annotated[AppState, Depends(get_state)]


def get_settings(state: StateDep) -> ApiHost:
    return state.settings


def get_container(state: StateDep) -> Services:
    return state.container


def get_store(state: StateDep) -> GraphStore:
    return state.container.store


def get_embedder(state: StateDep) -> Embedder:
    return state.container.embedder


def get_llm(state: StateDep) -> LLMClient | None:
    return state.llm


SettingsDep = Annotated[ApiHost, Depends(get_settings)]
ContainerDep = Annotated[Services, Depends(get_container)]
StoreDep = Annotated[GraphStore, Depends(get_store)]
EmbedderDep = Annotated[Embedder, Depends(get_embedder)]
LlmDep = Annotated[LLMClient | None, Depends(get_llm)]
