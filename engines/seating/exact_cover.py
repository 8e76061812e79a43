"""Knuth's Algorithm X: choose rows that cover every column exactly once.

Dicts of sets stand in for the dancing links. The structured schedules of `translation` reduce
to such a choice; the row order is seeded so that a seed always gives the same answer, and a
node limit keeps a hard instance bounded.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

Row = TypeVar("Row", bound="SupportsRichComparison")  # sorted, so that a seed always gives the same answer
Column = TypeVar("Column", bound=Hashable)


def exact_cover(rows: Mapping[Row, Sequence[Column]], rng: random.Random, node_limit: int) -> list[Row] | None:
    """Keys of rows covering each column (anything a row names) exactly once, or None when there
    is no such choice or the search visited `node_limit` nodes without finding one."""
    columns: dict[Column, set[Row]] = {}
    for key, named in rows.items():
        for column in named:
            columns.setdefault(column, set()).add(key)
    chosen: list[Row] = []
    nodes = 0

    def select(key: Row) -> list[set[Row]]:
        removed = []
        for column in rows[key]:
            for other in columns[column]:
                for clash in rows[other]:
                    if clash != column:
                        columns[clash].discard(other)
            removed.append(columns.pop(column))
        return removed

    def deselect(key: Row, removed: list[set[Row]]) -> None:
        for column in reversed(rows[key]):
            columns[column] = removed.pop()
            for other in columns[column]:
                for clash in rows[other]:
                    if clash != column:
                        columns[clash].add(other)

    def search() -> bool:
        nonlocal nodes
        if not columns:
            return True
        nodes += 1
        if nodes > node_limit:
            return False
        column = min(columns, key=lambda c: len(columns[c]))
        candidates = sorted(columns[column])
        rng.shuffle(candidates)
        for key in candidates:
            chosen.append(key)
            removed = select(key)
            if search():
                return True
            deselect(key, removed)
            chosen.pop()
        return False

    return chosen if search() else None
