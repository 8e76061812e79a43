"""OpenAPI links between API v1's operations: which value of one answer names the object of another request (a
tournament's slug in the list, a game's number, a player's id). Generic clients follow them, and schemathesis'
stateful run (tests/api/test_schemathesis.py) walks them as chains of requests.

A link names its target by the operationId the schema gives the target (found by method and path, so renaming a
view keeps its links), and its parameters by runtime expressions over the source's request and answer.
"""
from typing import Any

PREFIX = "/api/v1"
FIRST_SLUG = "$response.body#/results/0/slug"
SAME_SLUG = "$request.path.slug"
TOURNAMENT_OPERATIONS = {
    "tournament": ("get", "/tournaments/{slug}/"), "standings": ("get", "/tournaments/{slug}/standings/"),
    "games": ("get", "/tournaments/{slug}/games/"), "players": ("get", "/tournaments/{slug}/players/"),
    "announcements": ("get", "/tournaments/{slug}/announcements/"), "results": ("get", "/tournaments/{slug}/results/"),
    "entries": ("post", "/tournaments/{slug}/entries/"), "import": ("post", "/tournaments/{slug}/players/import/"),
}
"""Everything asked of one tournament, by its slug."""
LINKS: dict[tuple[str, str], dict[str, tuple[tuple[str, str], dict[str, str]]]] = {
    ("get", "/championships/"): {"championship": (("get", "/championships/{slug}/"), {"slug": FIRST_SLUG})},
    ("get", "/tournaments/"): {name: (target, {"slug": FIRST_SLUG}) for name, target in TOURNAMENT_OPERATIONS.items()},
    ("get", "/tournaments/{slug}/"): {name: (target, {"slug": SAME_SLUG})
                                      for name, target in TOURNAMENT_OPERATIONS.items() if name != "tournament"},
    ("get", "/tournaments/{slug}/games/"): {"seating": (("get", "/tournaments/{slug}/games/{number}/seating/"), {
        "slug": SAME_SLUG, "number": "$response.body#/results/0/number"})},
    ("get", "/tournaments/{slug}/players/"): {"player": (("get", "/tournaments/{slug}/players/{player_id}/"), {
        "slug": SAME_SLUG, "player_id": "$response.body#/results/0/player_id"})},
    ("get", "/tournaments/{slug}/standings/"): {"player": (("get", "/tournaments/{slug}/players/{player_id}/"), {
        "slug": SAME_SLUG, "player_id": "$response.body#/results/0/player_id"})},
}
"""Source operation (method, path under /api/v1) → its links: name → (target operation, target's parameters)."""


def with_links(document: dict[str, Any]) -> dict[str, Any]:
    """The generated document with each source's 200 answer carrying its links (an operation missing from the
    document is a mistake here: KeyError)."""
    paths = document["paths"]
    for (method, path), links in LINKS.items():
        responses = paths[PREFIX + path][method]["responses"]
        answer = next(value for status, value in responses.items() if str(status) == "200")  # ninja's keys: ints
        answer["links"] = {name: {"operationId": paths[PREFIX + target_path][target_method]["operationId"],
                                  "parameters": parameters}
                           for name, ((target_method, target_path), parameters) in links.items()}
    return document
