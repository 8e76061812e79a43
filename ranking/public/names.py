"""The names of a tournament's entries as the searches and the lists need them."""

from championships.models import Tournament
from championships.namesakes import entry_numbers
from ranking.public.versioned import per_version


def searchable_names(tournament: Tournament) -> list[tuple[str, int, str, int]]:
    """(search name, entry id, name, player id) of every entry, by name (`Player.search_name`, `.sort_key`); cached
    per results version (entries and renamed players replace it), so a search compares strings in one list."""
    return per_version(tournament, "where-search-names", lambda: list(
        tournament.entries.order_by("player__sort_key", "pk")
        .values_list("player__search_name", "pk", "player__name", "player_id")))


def namesake_numbers(tournament: Tournament) -> dict[int, int]:
    """Entry id → its number among the tournament's namesakes ("Ann Lee (2)"), for entries whose name another
    shares: every public list names them alike, so a player finds their own seat. Cached per results version."""
    return per_version(tournament, "namesakes", lambda: entry_numbers(
        (pk, name) for _key, pk, name, _player in searchable_names(tournament)))
