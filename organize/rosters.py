"""Reads behind the players, relationships and entries pages: a page of rows in a fixed number of queries."""
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet

from championships.models import Entry, Player, Relationship, Tournament

PER_PAGE = 50


def players(tournament: Tournament, query: str = "", only: str = "") -> QuerySet[Player]:
    """Every registered player (players are shared by all events), marked if entered in this tournament.

    `only`: "entered" or "not_entered" in this tournament.
    """
    rows = (Player.objects.select_related("country")
            .annotate(entered=Exists(Entry.objects.filter(tournament=tournament, player=OuterRef("pk"))))
            .order_by("name", "pk"))
    query = query.strip()[:100]
    if query:
        rows = rows.filter(Q(name__icontains=query) | Q(email__icontains=query) | Q(country__code__iexact=query)
                           | Q(country__name__icontains=query))
    if only == "entered":
        rows = rows.filter(entered=True)
    elif only == "not_entered":
        rows = rows.filter(entered=False)
    return rows


def relations_of(player_ids: list[int]) -> dict[int, list[tuple[str, str]]]:
    """Each player's declared friends and family as (name, kind label), in one query."""
    pairs = (Relationship.objects.filter(Q(player_a__in=player_ids) | Q(player_b__in=player_ids))
             .select_related("player_a", "player_b").order_by("pk"))
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


def player_rows(page_players) -> list[PlayerRow]:
    page_players = list(page_players)
    relations = relations_of([p.pk for p in page_players])
    return [PlayerRow(p, relations.get(p.pk, [])) for p in page_players]


def relationships(tournament: Tournament, query: str = "") -> QuerySet[Relationship]:
    """Declared pairs with at least one player entered in this tournament (or, searching, named like the query)."""
    entered = Entry.objects.filter(tournament=tournament).values("player_id")
    rows = Relationship.objects.select_related("player_a__country", "player_b__country")
    query = query.strip()[:100]
    if query:
        rows = rows.filter(Q(player_a__name__icontains=query) | Q(player_b__name__icontains=query))
    else:
        rows = rows.filter(Q(player_a__in=entered) | Q(player_b__in=entered))
    return rows.order_by("player_a__name", "player_b__name")


def entered_players(tournament: Tournament) -> list[tuple[int, str]]:
    """(player id, name) of everyone entered, for the relationship form's choices."""
    return list(Entry.objects.filter(tournament=tournament).order_by("player__name")
                .values_list("player_id", "player__name"))


def entries(tournament: Tournament, query: str = "") -> QuerySet[Entry]:
    rows = (Entry.objects.filter(tournament=tournament).select_related("player__country", "source_tournament")
            .annotate(seated=Exists(Entry.objects.filter(pk=OuterRef("pk"), seats__isnull=False)))
            .order_by("player__name", "pk"))
    query = query.strip()[:100]
    if query:
        rows = rows.filter(Q(player__name__icontains=query) | Q(player__email__icontains=query))
    return rows
