"""Public pages of the championships app: the list of tournaments."""
from django.shortcuts import render

from ..selectors import tournament_list


def home(request):
    return render(request, "championships/home.html", {"tournaments": tournament_list()})
