"""The production stack (docker-compose.yml + Dockerfile) is valid and keeps its guarantees:
pinned images, the GDS and APOC plugins, a real health check, and an API that waits for it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML is needed to read docker-compose.yml")

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"


def compose_command() -> list[str] | None:
    """`docker compose` (v2 plugin) where it works, else `docker-compose` (v1), else None."""
    docker = shutil.which("docker")
    if docker:
        probe = subprocess.run(
            [docker, "compose", "version"], capture_output=True, text=True, check=False
        )
        if probe.returncode == 0:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return loaded


def compose_config(password: str | None) -> subprocess.CompletedProcess[str]:
    command = compose_command()
    if command is None:
        pytest.skip("no docker compose CLI (neither `docker compose` nor `docker-compose`)")
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_PASSWORD"}
    if password is not None:
        env["NEO4J_PASSWORD"] = password
    return subprocess.run(
        [*command, "-f", str(COMPOSE), "config", "--quiet"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_compose_config_is_valid() -> None:
    done = compose_config("a-long-secret")
    assert done.returncode == 0, done.stderr


def test_compose_refuses_an_unset_password() -> None:
    done = compose_config(None)
    assert done.returncode != 0
    assert "NEO4J_PASSWORD" in done.stderr


def test_neo4j_image_is_pinned_with_plugins(spec: dict[str, Any]) -> None:
    neo4j = spec["services"]["neo4j"]
    assert re.fullmatch(r"neo4j:5\.\d+\.\d+-(community|enterprise)", neo4j["image"])
    env = neo4j["environment"]
    plugins = yaml.safe_load(env["NEO4J_PLUGINS"])
    assert set(plugins) == {"apoc", "graph-data-science"}
    assert "gds.*" in env["NEO4J_dbms_security_procedures_unrestricted"]
    assert env["NEO4J_AUTH"].startswith("neo4j/")
    assert {"neo4j-data:/data", "neo4j-plugins:/plugins"} <= set(neo4j["volumes"])


def test_neo4j_healthcheck_runs_a_query(spec: dict[str, Any]) -> None:
    check = spec["services"]["neo4j"]["healthcheck"]
    assert check["test"][0] in ("CMD", "CMD-SHELL")
    assert "cypher-shell" in " ".join(check["test"]) and "RETURN 1" in " ".join(check["test"])
    assert int(check["retries"]) >= 3


def test_api_waits_for_healthy_neo4j(spec: dict[str, Any]) -> None:
    api = spec["services"]["api"]
    assert api["depends_on"]["neo4j"]["condition"] == "service_healthy"
    env = api["environment"]
    assert env["KG_STORE"] == "neo4j"
    assert env["KG_NEO4J__URI"] == "bolt://neo4j:7687"
    assert api["build"]["dockerfile"] == "Dockerfile"
    assert re.fullmatch(r"kg-first-api:\d+\.\d+\.\d+", api["image"])


def test_dockerfile_installs_cpu_torch_and_serves() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert re.search(r"^FROM python:3\.11[\w.-]*-slim", text, re.MULTILINE)
    assert "torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu" in text
    assert text.index("RUN pip install torch==2.13.0") < text.index("RUN pip install .")
    assert 'CMD ["kg", "serve", "--host", "0.0.0.0", "--port", "8000"]' in text
    assert re.search(r"^USER \w+", text, re.MULTILINE), "the API must not run as root"


def test_api_has_a_readiness_healthcheck(spec: dict[str, Any]) -> None:
    check = spec["services"]["api"]["healthcheck"]
    assert check["test"][0] in ("CMD", "CMD-SHELL")
    assert "/readyz" in " ".join(check["test"]) and int(check["retries"]) >= 3
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert re.search(r"^HEALTHCHECK .*\n?.*/readyz", text, re.MULTILINE), "image healthcheck"


def test_neo4j_password_has_no_default(spec: dict[str, Any]) -> None:
    """An unset NEO4J_PASSWORD stops compose (``${VAR:?message}``) instead of falling back to
    a password anyone can read in this file."""
    auth = spec["services"]["neo4j"]["environment"]["NEO4J_AUTH"]
    password = spec["services"]["api"]["environment"]["KG_NEO4J__PASSWORD"]
    for value in (auth, password):
        assert "${NEO4J_PASSWORD:?" in value, value
    assert ":-" not in COMPOSE.read_text(encoding="utf-8").split("NEO4J_PASSWORD")[1][:3]
    assert "change-me" not in COMPOSE.read_text(encoding="utf-8")
