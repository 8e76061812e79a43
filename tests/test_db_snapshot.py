"""The "nothing written when refused" snapshot covers every installed app (issue 32 item 10): it listed apps by hand,
and ratings (seasons, rating updates) was added later, so a refused request that wrote there passed."""
import pytest
from django.apps import apps
from django.http import HttpResponseForbidden
from django.test import override_settings
from django.urls import path

from ratings.models import RatingRequest
from tests import db_snapshot

pytestmark = pytest.mark.django_db


def _refused_after_writing(request):
    """A view whose permission check comes after a write: the bug the matrix is there to catch."""
    RatingRequest.objects.create(tournament_id=1)
    return HttpResponseForbidden("Only an organizer of this tournament may do this.")


urlpatterns = [path("leaky/", _refused_after_writing)]


@override_settings(ROOT_URLCONF=__name__)
def test_a_refused_request_that_writes_a_ratings_row_is_caught(client):
    before = db_snapshot.snapshot()
    assert client.post("/leaky/").status_code == 403
    assert db_snapshot.changed(before, db_snapshot.snapshot()) == ["ratings.RatingRequest"]


def test_every_model_of_every_installed_app_is_in_the_snapshot():
    read = {model._meta.label for model in db_snapshot.snapshot_models()}
    everything = {model._meta.label for model in apps.get_models(include_auto_created=True)}
    assert everything - read == set(db_snapshot.NOT_DATA)
    assert {"ratings.Season", "ratings.Season_championships", "ratings.RatingChange", "webhooks.Delivery"} <= read
