"""Public pages of the championships app: the tournaments under way, to come and over, and the championships."""
from django.shortcuts import render

from ..selectors import home_page


def home(request):
    return render(request, "championships/home.html", {"page": home_page()})
