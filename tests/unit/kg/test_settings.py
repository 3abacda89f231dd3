"""Settings as a user gives them: an invalid value is one line naming the variable and what it
may be; a relative path is taken from where it was given."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.errors import ConfigError
from kg.settings import Settings, get_settings


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[pytest.MonkeyPatch]:
    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    get_settings.cache_clear()
    yield monkeypatch
    get_settings.cache_clear()


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        (
            "KG_STORE",
            "neo5j",
            "KG_STORE='neo5j': Input should be 'embedded', 'falkordb' or 'neo4j'",
        ),
        ("KG_INGEST__MAX_FILE_BYTES", "10", "KG_INGEST__MAX_FILE_BYTES='10': "),
    ],
)
def test_invalid_setting_is_one_line_naming_it(
    fresh: pytest.MonkeyPatch, variable: str, value: str, says: str
) -> None:
    fresh.setenv(variable, value)
    with pytest.raises(ConfigError) as caught:
        get_settings()
    message = str(caught.value)
    assert message.startswith("invalid setting ") and says in message
    assert "\n" not in message


def test_relative_neo4j_jars_dir_is_made_absolute(
    fresh: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fresh.setenv("KG_NEO4J_SERVER__JARS_DIR", "tools/neo4j")
    jars = Settings().neo4j_server.jars_dir
    assert jars.is_absolute() and jars == tmp_path.resolve() / "tools" / "neo4j"
