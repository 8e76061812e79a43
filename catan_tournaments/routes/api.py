"""The read-only public JSON API (docs/interfaces.md, HTTP); unknown tournaments, games and rated players answer 404
in JSON."""
from django.urls import path

from championships import api as championships_api
from ranking import api as ranking_api
from ranking.live import shared_when_anonymous as shared
from ratings import api as ratings_api
from results import api as results_api
from web.api.http import superseded

urlpatterns = [
    # deprecated: API v1 (web/api/) answers the same objects, paged; these keep working and name their successor
    path("tournaments/", superseded("tournaments")(shared(championships_api.tournament_list)), name="api-tournaments"),
    path("tournaments/<slug:slug>/standings/", superseded("standings")(shared(ranking_api.standings)),
         name="api-standings"),
    path("tournaments/<slug:slug>/games/<int:number>/seating/", superseded("seating")(shared(results_api.seating)),
         name="api-seating"),
    path("ratings/", shared(ratings_api.ratings), name="api-ratings"),
    path("ratings/players/<int:player_id>/", shared(ratings_api.player), name="api-rating-player"),
]
