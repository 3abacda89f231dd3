"""Rows streamed from a store, packed as an Arrow table while they arrive: what
``read_projection`` takes as ``columns`` from a store whose driver gives rows, not Arrow.

A whole-graph read returns one embedding per chunk and per entity. Kept as rows, every
component is a Python float (24 bytes plus a list slot) alive until the projection is built,
and the heap they leave behind stays resident: a 6,000-passage graph read from Neo4j held
about 157 KB a passage in the API process against 60 on the embedded store, which reads Arrow.
Here each row's vector becomes float32 as it arrives, so the floats of one row live at once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa


def packed_table(keys: Sequence[str], rows: Iterable[Sequence[Any]]) -> pa.Table:
    """``rows`` (one value per key) as a table; a column whose values are all number lists
    of one length becomes a fixed-size list of float32, any other stays as given."""
    columns: list[list[Any]] = [[] for _ in keys]
    vector = [True] * len(keys)
    for row in rows:
        for i, value in enumerate(row):
            if vector[i] and not _is_vector(value):
                vector[i] = False  # not a vector column: the rows packed so far as given
                columns[i] = [v.tolist() for v in columns[i]]
            columns[i].append(np.asarray(value, dtype=np.float32) if vector[i] else value)
    arrays = [_column(c, v) for c, v in zip(columns, vector, strict=True)]
    return pa.table(arrays, names=list(keys))


def _is_vector(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and isinstance(value[0], (float, int))


def _column(values: list[Any], vector: bool) -> pa.Array:
    if not (vector and values):
        return pa.array(values)
    if len({v.shape for v in values}) != 1:
        return pa.array([v.tolist() for v in values])
    matrix = np.stack(values)
    flat = pa.array(matrix.reshape(-1), type=pa.float32())
    return pa.FixedSizeListArray.from_arrays(flat, matrix.shape[1])
