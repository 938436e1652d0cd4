"""A result corrected in round 1 of a stored event changes the standings served afterwards."""

import re

import pytest
from django.test import Client

from swiss import eventfile as ef
from tests.conftest import EXAMPLES
from tournament.models import EventRole, Match
from tournament.snapshot import import_event

pytestmark = pytest.mark.django_db


def served_order(client, slug, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    response = client.get(f"/e/{slug}/standings/", **headers)
    assert response.status_code == 200
    names = re.findall(r"Player [A-H]", response.content.decode())
    return list(dict.fromkeys(names)), response["ETag"]


def test_correcting_round_one_changes_the_served_standings(organiser):
    event = import_event(ef.loads((EXAMPLES / "seed002-hyogo.json").read_bytes()), slug="hyogo")
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    phone = Client()
    before, etag = served_order(phone, "hyogo")
    assert before == [f"Player {c}" for c in "AEBGDFCH"]
    assert phone.get("/e/hyogo/standings/", HTTP_IF_NONE_MATCH=etag).status_code == 304

    # Round 1, A beat B 2-1: the judge finds the slip said B won 2-1.
    match = Match.objects.get(round__event=event, round__number=1, player_a__key="A")
    desk = Client()
    desk.force_login(organiser)
    response = desk.post(
        f"/events/hyogo/rounds/1/matches/{match.pk}/result/",
        {"result": "1-2", "version": match.version, "confirm": "on"},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.games == (1, 2, 0)

    assert phone.get("/e/hyogo/standings/", HTTP_IF_NONE_MATCH=etag).status_code == 200
    after, _ = served_order(phone, "hyogo")
    assert after != before
    # B now beat A in round 1 and won rounds 2 and 3: alone on 9 points; A drops to 6.
    assert after[0] == "Player B" and after.index("Player A") > 0
    assert match.changes.filter(before__games=[2, 1, 0], after__games=[1, 2, 0]).count() == 1
