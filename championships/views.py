from django.shortcuts import render

from .models import Tournament


def home(request):
    tournaments = Tournament.objects.select_related("championship").order_by("-date", "name")
    return render(request, "championships/home.html", {"tournaments": tournaments})
