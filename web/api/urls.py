"""API v1's URLs, included at /api/v1/ (catan_tournaments/urls.py); named in the `api-v1` namespace."""
from django.urls import path

from .views import api

urlpatterns = [path("", api.urls)]
