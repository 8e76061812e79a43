"""Server errors the adversarial test of issue 33 (item 11) found, each a plain answer now: an unknown record sheet
posted from a player's phone, implausible birth dates, and template comments shown as text."""
import pytest

from championships import links
from tests.factories import make_entries, make_tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("sheet_id", [99999999, 2**63])
@pytest.mark.parametrize("action", ["confirm", "object"])
def test_an_unknown_sheet_posted_from_the_phone_is_not_found(client, sheet_id, action):
    """`RecordSheet.DoesNotExist` went up as a 500; the answer keeps the private page's headers."""
    (entry,) = make_entries(make_tournament(), 1)
    response = client.post(f"/me/{links.issue(entry.player)}/sheets/{sheet_id}/", {"action": action, "version": 1})
    assert response.status_code == 404
    assert "no-store" in response["Cache-Control"] and response["X-Robots-Tag"] == "noindex, nofollow"
