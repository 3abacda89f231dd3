from pathlib import Path

from extraction.llm_cache import LlmCache, cache_key
from extraction.llm_extractor import LlmExtraction, load_prompt


def test_key_changes_with_every_part() -> None:
    base = cache_key("h", "extract.v1", "m", "s")
    assert (
        len(
            {
                base,
                *(
                    cache_key(*p)
                    for p in [
                        ("h2", "extract.v1", "m", "s"),
                        ("h", "extract.v2", "m", "s"),
                        ("h", "extract.v1", "m2", "s"),
                        ("h", "extract.v1", "m", "s2"),
                    ]
                ),
            }
        )
        == 5
    )
    assert base == cache_key("h", "extract.v1", "m", "s")


def test_round_trip_and_unreadable_entries(tmp_path: Path) -> None:
    cache = LlmCache(tmp_path / "c")
    assert not (tmp_path / "c").exists()  # constructing does no I/O
    key = cache_key("h", "v", "m", "s")
    assert cache.get(key) is None
    value = {"entities": [{"name": "Kelby Clinic", "type": "SERVICE"}], "relations": []}
    cache.put(key, value)
    assert cache.get(key) == value
    path = tmp_path / "c" / key[:2] / f"{key}.json"
    path.write_text("{broken", encoding="utf-8")
    assert cache.get(key) is None
    assert not list(path.parent.glob(".tmp-*"))


def test_shipped_prompt_has_its_placeholders() -> None:
    prompt = load_prompt("extract.v1")
    assert "$entity_types" in prompt.system and "$relation_types" in prompt.system
    assert "<passage>" in prompt.user and "$text" in prompt.user


def test_answer_model_ignores_extra_fields_and_requires_names() -> None:
    ok = LlmExtraction.model_validate(
        {"entities": [{"name": " X ", "type": "PERSON", "extra": 1}], "cypher": "MATCH (n)"}
    )
    assert ok.entities[0].name == "X" and ok.relations == []
    try:
        LlmExtraction.model_validate({"entities": [{"type": "PERSON"}]})
    except ValueError:
        pass
    else:
        raise AssertionError("an entity without a name was accepted")
