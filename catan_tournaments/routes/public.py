"""Public pages, no login: the tournaments and each tournament's standings."""
from django.urls import path

from championships.views import public as championships_public
from ranking.views import public as ranking_public

urlpatterns = [
    path("", championships_public.home, name="home"),
    path("t/<slug:slug>/standings/", ranking_public.standings, name="public-standings"),
    path("t/<slug:slug>/standings.csv", ranking_public.standings_csv, name="public-standings-csv"),
]
