"""Pieces of entity linking that need no store."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from retrieval.graph_index import GraphIndex
from retrieval.linking import _nearest_entities
from tests.unit.retrieval.test_ppr import _data


def test_nearest_entities_is_exact_cosine_best_first() -> None:
    data = _data([("c0", "d0")], ["a", "b", "c"], [("c0", "a", 1)])
    vectors = [[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]]
    index = GraphIndex(replace(data, entity_embeddings=vectors))
    got = _nearest_entities(np.asarray([0.0, 2.0]), index, store=None, k=2)  # type: ignore[arg-type]
    assert [i for i, _ in got] == [2, 1]
    assert got[0][1] == pytest.approx(1.0) and got[1][1] == pytest.approx(0.8)
    assert len(_nearest_entities(np.asarray([1.0, 0.0]), index, None, k=10)) == 3  # type: ignore[arg-type]
