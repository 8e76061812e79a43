"""Public pages, no login: the tournaments, championships, and each tournament's overview, "where do I sit?",
games, players, standings, projector screen, stream overlay and the embed for other websites; the ratings across
events."""
from django.urls import path

from championships.views import public as championships_public
from ranking.live import shared_when_anonymous as shared
from web.public import embed as public_embed
from web.public import overlay_views
from web.public import pages as public_pages
from web.public import printing as public_printing
from web.public import standings as ranking_public
from web.public import views as web_public

XLSX = {"fmt": "xlsx"}
"""The workbook beside a CSV: the same view and rows (`core.table_export`)."""
# `shared`: pages not kept whole by the app (`cached_page`) that nginx may still keep a second for anyone not
# signed in (ranking/live.py).

urlpatterns = [
    path("", shared(championships_public.home), name="home"),
    path("c/<slug:championship_slug>/", shared(public_pages.championship), name="public-championship"),
    path("t/<slug:slug>/", public_pages.overview, name="public-tournament"),
    path("t/<slug:slug>/where/", public_pages.where, name="public-where"),
    path("t/<slug:slug>/games/<int:number>/", public_pages.game, name="public-game"),
    path("t/<slug:slug>/players/<int:player_id>/", public_pages.player, name="public-player"),
    path("t/<slug:slug>/screen/", public_pages.screen, name="public-screen"),
    path("t/<slug:slug>/version/", public_pages.version, name="public-version"),
    path("t/<slug:slug>/overlay/", overlay_views.overlay, name="public-overlay"),
    path("t/<slug:slug>/overlay/version/", overlay_views.version, name="public-overlay-version"),
    path("t/<slug:slug>/embed/", public_embed.embed, name="public-embed"),
    path("t/<slug:slug>/standings/", ranking_public.standings, name="public-standings"),
    path("t/<slug:slug>/standings.csv", shared(ranking_public.standings_csv), name="public-standings-csv"),
    path("t/<slug:slug>/standings.xlsx", shared(ranking_public.standings_csv), XLSX, name="public-standings-xlsx"),
    path("t/<slug:slug>/standings.pdf", shared(public_printing.standings_pdf), name="public-standings-pdf"),
    path("t/<slug:slug>/games/<int:number>/seating.pdf", shared(public_printing.seating_pdf),
         name="public-seating-pdf"),
    path("ratings/", shared(web_public.ratings), name="ratings"),
    path("ratings.csv", shared(web_public.ratings_csv), name="ratings-csv"),
    path("ratings.xlsx", shared(web_public.ratings_csv), XLSX, name="ratings-xlsx"),
    path("ratings/players/<int:player_id>/", shared(web_public.player), name="rating-player"),
    path("ratings/players/<int:player_id>.csv", shared(web_public.player_csv), name="rating-player-csv"),
    path("ratings/players/<int:player_id>.xlsx", shared(web_public.player_csv), XLSX, name="rating-player-xlsx"),
]
