"""Entries after divisions were paired together (docs/sections.md): a player registered, placed or moved into a
joined section plays in its partner, in the joined section's division, and one added to the partner gets the
partner's; so every one of them is paired in the next round and ranked in a named division."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.web.organiser.test_concurrency import logged_in
from tests.web.sections.test_divisions import pairing, play
from tournament.models import Player
from tournament.services.roster import add_player
from tournament.services.rounds import pair_next_round
from tournament.services.sections import add_section, move_player, place_unplaced, update_section

pytestmark = pytest.mark.django_db


def joined(venue, organiser):
    """A joined B at round 1, which is played: the next entries are late entries of B's Swiss."""
    a, b = pairing(venue, below=8)
    play(pair_next_round(a, organiser), organiser)
    return a, b


def where(name: str) -> tuple[str, str]:
    p = Player.objects.select_related("event").get(name=name)
    return p.event.name, p.division


def test_every_way_into_a_joined_section_enters_the_partner_in_the_sections_division(venue, organiser):
    a, b = joined(venue, organiser)
    client = logged_in(organiser)
    client.post(reverse("org_player_add", args=[venue.slug]), {"name": "Quick", "section": a.pk, "once": "q1"})
    client.post(reverse("org_player_add", args=[a.slug]), {"name": "At A", "once": "q2"})
    client.post(reverse("org_players_paste", args=[venue.slug]), {"lines": "name, section\nPasted, A", "once": "p1"})
    text = "name,section\nFiled,A\n"
    upload = SimpleUploadedFile("p.csv", text.encode(), content_type="text/csv")
    assert client.post(reverse("org_players_csv", args=[venue.slug]), {"file": upload}).status_code == 200
    client.post(reverse("org_players_csv_confirm", args=[venue.slug]), {"text": text})
    for name in ("Quick", "At A", "Pasted", "Filed"):
        assert where(name) == ("B", "A"), name
    assert not a.players.exists()
    # They are late entries of the Swiss they play in, and the next round pairs them.
    rnd = pair_next_round(b, organiser)
    paired = set(rnd.matches.values_list("player_a__name", flat=True)) | set(
        rnd.matches.values_list("player_b__name", flat=True)
    )
    assert {"Quick", "At A", "Pasted", "Filed"} <= paired
    assert set(Player.objects.filter(name="Quick").values_list("joined_round", flat=True)) == {2}


def test_the_quick_add_at_a_joined_section_says_where_the_player_went(venue, organiser):
    a, b = joined(venue, organiser)
    page = logged_in(organiser).post(
        reverse("org_player_add", args=[a.slug]), {"name": "Late", "once": "n1"}, follow=True
    )
    assert "paired together with “B”" in page.content.decode()


def test_placing_by_the_rules_and_moving_into_a_joined_section_enter_the_partner(venue, organiser):
    a, b = joined(venue, organiser)
    update_section(a, organiser, rating_max=1199)
    Player.objects.create(event=venue, name="Young", rating=900)
    placed, left = place_unplaced(venue, organiser)
    assert (placed, left) == ({"A": 1}, 0) and where("Young") == ("B", "A")
    waiting = Player.objects.create(event=venue, name="Waiting", rating=2000)
    move_player(waiting, a, organiser)
    assert where("Waiting") == ("B", "A")
    # Moved again, to the partner itself, they change division (they have not been paired yet).
    move_player(Player.objects.get(name="Waiting"), b, organiser)
    assert where("Waiting") == ("B", "B")


def test_a_player_added_to_the_partner_after_the_join_is_in_the_partners_division(venue, organiser):
    a, b = joined(venue, organiser)
    player, _ = add_player(b, organiser, name="Direct")
    assert (player.event, player.division) == (b, "B")
    page = logged_in(organiser).get(reverse("org_standings", args=[b.slug])).content.decode()
    assert "Direct" in page
    # A section that joined nobody gives no division, as ever.
    c = add_section(venue, "C", organiser)
    assert add_player(c, organiser, name="Nobody")[0].division == ""
