"""Reads behind the players, relationships and entries pages: a page of rows in a fixed number of queries.

Players are shared by the whole deployment, but an organizer reads the personal data (email, date of
birth) only of players entered in tournaments they organize (`permissions.visible_players`), and of a player
of another championship entered here, only what was typed until they confirm: rows carry `shown_email` and
`shown_born` (`permissions.personal_details`), the only personal data pages and exports show or search. A pair
is listed only if this tournament's championship declared it or both players are entered here.
"""
from dataclasses import dataclass
from datetime import date
from typing import TypedDict

from django.db.models import Exists, OuterRef, Q, QuerySet

from championships.models import Entry, Player, Relationship, Tournament
from championships.namesakes import staff_details
from championships.permissions import awaiting_player, personal_details, visible_players
from championships.relationships import declared_for
from core.names import fold

PER_PAGE = 50


class Shown(TypedDict):
    """What `permissions.personal_details` annotates each row with: the only email and birth date pages show."""

    shown_email: str
    shown_born: date | None


class ShownEntry(Shown):
    awaiting: bool
    """`entries`: made from another championship, not confirmed by the player yet."""


def players(tournament: Tournament, user, query: str = "", only: str = "") -> QuerySet[Player]:
    """The players of the user's tournaments and this one's, marked if entered here.

    `only`: "entered" or "not_entered" in this tournament. Names are searched as everywhere (`core.names.fold`)
    and listed in the collation's order (`Player.sort_key`).
    """
    entered_here = Exists(Entry.objects.filter(tournament=tournament, player=OuterRef("pk")))
    rows = (Player.objects.filter(Q(pk__in=visible_players(user).values("pk")) | Q(entered_here))
            .select_related("country").annotate(entered=entered_here, **personal_details(user, tournament))
            .order_by("sort_key", "pk"))
    query = query.strip()[:100]
    if query:
        rows = rows.filter(Q(search_name__contains=fold(query)) | Q(shown_email__icontains=query)
                           | Q(country__code__iexact=query) | Q(country__name__icontains=query))
    if only == "entered":
        rows = rows.filter(entered=True)
    elif only == "not_entered":
        rows = rows.filter(entered=False)
    return rows


def relationships(tournament: Tournament, query: str = "") -> QuerySet[Relationship]:
    """Pairs this tournament's championship declared, and pairs declared elsewhere that keep two of its entered
    players apart here (`declared_here` tells them apart)."""
    entered = Entry.objects.filter(tournament=tournament).values("player_id")
    rows = (Relationship.objects.select_related("player_a__country", "player_b__country")
            .annotate(declared_here=declared_for(tournament))
            .filter(Q(declared_here=True) | Q(player_a__in=entered, player_b__in=entered)))
    query = fold(query.strip()[:100])
    if query:
        rows = rows.filter(Q(player_a__search_name__contains=query) | Q(player_b__search_name__contains=query))
    return rows.order_by("player_a__sort_key", "player_b__sort_key", "pk")


def relations_of(tournament: Tournament, player_ids: list[int]) -> dict[int, list[tuple[str, str]]]:
    """Each player's friends and family as (name, kind label), among the pairs `relationships` shows, in one query."""
    pairs = relationships(tournament).filter(Q(player_a__in=player_ids) | Q(player_b__in=player_ids))
    found: dict[int, list[tuple[str, str]]] = {}
    for pair in pairs:
        label = pair.get_kind_display()
        found.setdefault(pair.player_a_id, []).append((pair.player_b.name, label))
        found.setdefault(pair.player_b_id, []).append((pair.player_a.name, label))
    return found


@dataclass(frozen=True)
class PlayerRow:
    player: Player
    relations: list[tuple[str, str]]


def player_rows(tournament: Tournament, page_players) -> list[PlayerRow]:
    page_players = list(page_players)
    relations = relations_of(tournament, [p.pk for p in page_players])
    return [PlayerRow(p, relations.get(p.pk, [])) for p in page_players]


def entered_players(tournament: Tournament, user) -> list[tuple[int, str]]:
    """(player id, name) of everyone entered, for the relationship form's choices; namesakes told apart."""
    players = [e.player for e in Entry.objects.filter(tournament=tournament).select_related("player__country")
               .order_by("player__sort_key", "player_id")]
    details = staff_details(players, private=_private(user, players))
    return [(p.pk, f"{p.name} ({details[p.pk]})" if p.pk in details else p.name) for p in players]


def _private(user, players) -> set[int]:
    """Ids of these players whose email and date of birth the user may not read (`permissions.visible_players`)."""
    ids = {player.pk for player in players}
    return ids - set(visible_players(user).filter(pk__in=ids).values_list("pk", flat=True))


def tell_apart(rows, *players_of, user) -> None:
    """Give each row `<attribute>_detail` (e.g. `player_detail`) for its namesakes on the page (`staff_details`,
    telling the user only what they may read); `players_of` names the rows' player attributes."""
    rows = list(rows)
    players = [getattr(row, attr) for row in rows for attr in players_of]
    details = staff_details(players, private=_private(user, players))
    for row in rows:
        for attr in players_of:
            setattr(row, f"{attr}_detail", details.get(getattr(row, attr).pk, ""))


def entries(tournament: Tournament, user, query: str = "") -> QuerySet[Entry]:
    """The tournament's entries, each with what the user may read of its player (`shown_email`, `shown_born`) and
    whether it awaits the player's confirmation (`awaiting`)."""
    rows = (Entry.objects.filter(tournament=tournament).select_related("player__country", "source_tournament")
            .annotate(seated=Exists(Entry.objects.filter(pk=OuterRef("pk"), seats__isnull=False)),
                      awaiting=awaiting_player(), **personal_details(user, tournament, "player__"))
            .order_by("player__sort_key", "pk"))
    query = query.strip()[:100]
    if query:
        rows = rows.filter(Q(player__search_name__contains=fold(query)) | Q(shown_email__icontains=query))
    return rows
