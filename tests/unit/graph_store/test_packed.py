"""Rows packed as an Arrow table while they stream: vectors as float32 matrices, other
columns as given, columns that only look like vectors at first kept whole."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from graph_store.packed import packed_table


def test_a_vector_column_becomes_a_float32_matrix() -> None:
    rows = [["a", [0.5, 1.0, 2.0], 3], ["b", [1.5, 0.0, -1.0], 4]]
    table = packed_table(["id", "vector", "n"], iter(rows))
    assert table.column("vector").type == pa.list_(pa.float32(), 3)
    matrix = table.column("vector").combine_chunks().flatten().to_numpy().reshape(2, 3)
    assert matrix.dtype == np.float32
    assert matrix.tolist() == [[0.5, 1.0, 2.0], [1.5, 0.0, -1.0]]
    assert table.column("id").to_pylist() == ["a", "b"] and table.column("n").to_pylist() == [3, 4]


def test_missing_or_ragged_vectors_stay_lists_and_nothing_is_lost() -> None:
    rows = [["a", [1.0, 2.0], [1.0]], ["b", None, [1.0, 2.0]], ["c", [3.0, 4.0], [5.0]]]
    table = packed_table(["id", "holes", "ragged"], rows)
    assert table.column("holes").to_pylist() == [[1.0, 2.0], None, [3.0, 4.0]]
    assert table.column("ragged").to_pylist() == [[1.0], [1.0, 2.0], [5.0]]


def test_no_rows_is_an_empty_table_with_the_keys() -> None:
    table = packed_table(["id", "vector"], [])
    assert table.num_rows == 0 and table.column_names == ["id", "vector"]
