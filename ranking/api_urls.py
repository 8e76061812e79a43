from django.urls import path

from . import api

urlpatterns = [
    path("tournaments/<slug:slug>/standings/", api.standings, name="api-standings"),
    path("tournaments/<slug:slug>/games/<int:number>/seating/", api.seating, name="api-seating"),
]
