from django.urls import path

from . import api

urlpatterns = [
    path("tournaments/", api.tournament_list, name="api-tournaments"),
]
