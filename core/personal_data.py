"""The registry of players' personal data: every model that holds a row about a player, or a personal detail, joins
it where it is declared (`@holds(...)` on the class), so a player's copy and their erasure (privacy/) walk one list
and a new model cannot be forgotten (tests/privacy/test_registry.py walks every installed model). A model with a
field that looks personal but is not a player's (a venue's city) says so with `@not_personal(why)`.

It lives in core, the lowest layer, so that every app's models may join it without an arrow going up.
"""
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import models

M = TypeVar("M", bound=type[models.Model])

PSEUDONYM = object()
"""Erased to the player's pseudonym ("Player 4821", `privacy.erasure.pseudonym`)."""
BLANK = object()
"""Erased to the field's empty value: "" for text, None for a nullable field."""
SCRUB = object()
"""The player's old name, email and date of birth taken out of the text or JSON (an audit entry's payload)."""


@dataclass(frozen=True)
class Holding:
    """What one model keeps about players.

    `about`: the lookup from the model to the player a row is about ("pk" for the player itself, "entry__player"…);
    `rows`: instead of `about`, a function giving a player's rows (the activity log's entries about them);
    `erase`: on erasure, field → PSEUDONYM, BLANK or a function of the row; `delete`: the rows go altogether;
    `hidden`: left out of the player's copy.
    Rows neither erased nor deleted keep what results and ranks need (they name the player only through the
    pseudonymised record)."""

    model: type[models.Model]
    why: str
    about: str = ""
    rows: Callable[[Any], Any] | None = None
    erase: Mapping[str, Any] = field(default_factory=dict)
    delete: bool = False
    hidden: tuple[str, ...] = ()
    """Fields the player's copy leaves out: digests and keys that open or encrypt something, derived sort keys."""

    def of(self, player: Any) -> Any:
        """The queryset of this model's rows about `player`."""
        if self.rows is not None:
            return self.rows(player)
        return self.model._default_manager.filter(**{self.about: player.pk}).order_by("pk")

    @property
    def label(self) -> str:
        return str(self.model._meta.label_lower)


REGISTRY: dict[str, Holding] = {}
EXEMPT: dict[str, str] = {
    "auth.user": "staff accounts (organizers, referees, admins): the site's users, not its players",
}
"""Models with a field that looks personal but holds no player's data, and why."""


def holds(*, why: str, about: str = "", rows: Callable[[Any], Any] | None = None,
          erase: Mapping[str, Any] | None = None, delete: bool = False, hidden: tuple[str, ...] = ()
          ) -> Callable[[M], M]:
    """Class decorator: the model joins the registry."""
    if bool(about) == (rows is not None):
        raise TypeError("A holding names its player by `about` or by `rows`, one of the two.")

    def register(model: M) -> M:
        holding = Holding(model, why, about, rows, erase or {}, delete, hidden)
        REGISTRY[holding.label] = holding
        return model
    return register


def not_personal(why: str) -> Callable[[M], M]:
    """Class decorator: the model's personal-looking fields are not a player's (`why` says whose)."""
    def register(model: M) -> M:
        EXEMPT[model._meta.label_lower] = why
        return model
    return register


def holdings() -> list[Holding]:
    """Every holding, in a fixed order (the player's record first)."""
    return sorted(REGISTRY.values(), key=lambda h: (h.about != "pk", h.label))
