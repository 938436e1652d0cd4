"""Each division of an age-modified Swiss gets the top cut its own attendance calls for, by Pokémon's table
(4–8 players no cut, 9–20 a top 4, 21 or more a top 8), never more than the event's top cut: a 5-player
Juniors joined into a 12-player Seniors no longer gets the Seniors' top 4."""

import pytest
from django.urls import reverse

from pairing.rounds import pokemon_structure, recommended_rounds
from tests.web.organiser.test_concurrency import logged_in
from tests.web.sections.test_divisions import pairing, play
from tournament.models import Event, Player, Round
from tournament.services.divisions import division_standings
from tournament.services.locks import ServiceError
from tournament.services.rounds import pair_next_round
from tournament.services.standings import event_standings
from tournament.services.top_cut import cut_sizes, final_places, placings_by_division, stage_names, start_top_cut

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("attendance", "rounds", "cut"),
    [(4, 3, 0), (8, 3, 0), (9, 4, 4), (12, 4, 4), (13, 5, 4), (20, 5, 4), (21, 5, 8), (64, 6, 8), (410, 10, 8)],
)
def test_pokemons_table_by_attendance(attendance, rounds, cut):
    assert pokemon_structure(attendance) == (rounds, cut)
    rec = recommended_rounds(attendance, preset="pokemon")
    assert (rec.rounds, rec.top_cut, rec.rule) == (rounds, cut, "pokemon")


def joined_sizes(venue, organiser, juniors: int, seniors: int, top_cut: int, rounds: int = 3) -> Event:
    """Section A (`juniors` players) joined into B (`seniors`), the Swiss played, the lower table winning."""
    a, b = venue.section_list
    for section, count in ((a, juniors), (b, seniors)):
        section.players.all().delete()
        Player.objects.bulk_create(
            Player(event=section, name=f"{section.name} Player {k:02}", rating=2000 - k) for k in range(count)
        )
    a, b = pairing(venue, below=99, top_cut=top_cut, planned_rounds=rounds)
    for _ in range(rounds):
        play(pair_next_round(b, organiser), organiser)
    b.refresh_from_db()
    return b


def test_a_five_player_juniors_gets_no_cut_beside_the_seniors_top_4(venue, organiser, client):
    joined = joined_sizes(venue, organiser, juniors=5, seniors=12, top_cut=8)
    assert [(name, size) for name, _, size in cut_sizes(joined)] == [("A", 0), ("B", 4)]
    semis = start_top_cut(joined, organiser)
    assert {m.player_a.division for m in semis.matches.all()} == {"B"}
    assert semis.matches.count() == 2
    play(semis, organiser)
    final = joined.rounds.get(number=semis.number + 1)
    play(final, organiser)
    assert stage_names(joined) == {semis.number: "Semifinals", final.number: "Final"}
    placings = placings_by_division(joined)
    assert [name for name, _ in placings] == ["B"] and len(placings[0][1]) == 4
    # The juniors are placed by their own Swiss standings, from 1.
    places = final_places(joined)
    juniors = joined.players.filter(division="A")
    assert sorted(places[p.pk] for p in juniors) == [1, 2, 3, 4, 5]
    page = client.get(reverse("public:bracket", args=[joined.slug])).content.decode()
    assert page.count('class="champion card"') == 1


def test_brackets_of_different_sizes_each_end_in_their_own_final(venue, organiser, client):
    joined = joined_sizes(venue, organiser, juniors=9, seniors=21, top_cut=8, rounds=4)
    assert [(name, size) for name, _, size in cut_sizes(joined)] == [("A", 4), ("B", 8)]
    org = logged_in(organiser).get(reverse("org_top_cut", args=[joined.slug])).content.decode()
    assert "A: top 4" in org and "B: top 8" in org
    first = start_top_cut(joined, organiser)
    divisions = [m.player_a.division for m in first.matches.order_by("table")]
    assert divisions == ["A"] * 2 + ["B"] * 4  # A's semifinals beside B's quarterfinals
    play(first, organiser)
    second = joined.rounds.get(number=first.number + 1)
    assert [m.player_a.division for m in second.matches.order_by("table")] == ["A", "B", "B"]
    play(second, organiser)
    assert placings_by_division(joined) is None  # B's final is still to come
    third = joined.rounds.get(number=second.number + 1)
    assert [m.player_a.division for m in third.matches.all()] == ["B"]
    play(third, organiser)
    assert joined.rounds.filter(number=third.number + 1).count() == 0
    placings = dict(placings_by_division(joined))
    assert len(placings["A"]) == 4 and len(placings["B"]) == 8
    juniors = division_standings(joined, event_standings(joined))[0]
    assert juniors.name == "A"
    assert stage_names(joined) == {first.number: "Quarterfinals", second.number: "Semifinals", third.number: "Final"}
    page = client.get(reverse("public:bracket", args=[joined.slug])).content.decode()
    assert page.count('class="champion card"') == 2
    assert joined.rounds.filter(kind=Round.Kind.ELIMINATION).count() == 3


def test_no_division_large_enough_refuses_the_cut(venue, organiser):
    joined = joined_sizes(venue, organiser, juniors=4, seniors=6, top_cut=4)
    with pytest.raises(ServiceError, match="No division has enough players"):
        start_top_cut(joined, organiser)
