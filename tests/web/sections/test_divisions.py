"""Divisions paired together, ranked apart (docs/sections.md): a small section joins its partner
when either pairs round 1, one Swiss pairs them all, and each division is ranked, cut and prized apart."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.jobs.test_jobs import status_url, work
from tests.web.organiser.test_concurrency import logged_in
from tournament.models import Event, EventLog, Job, Match, Player, Round
from tournament.services.divisions import division_standings, joined_into
from tournament.services.locks import ServiceError
from tournament.services.results import parse_outcome, record_result
from tournament.services.rounds import pair_next_round, publish_round
from tournament.services.standings import event_standings
from tournament.services.top_cut import final_places, placings_by_division, stage_names, start_top_cut

pytestmark = pytest.mark.django_db


def pairing(venue, below: int, **fields) -> tuple[Event, Event]:
    """Section A (the juniors) set to pair with B when either has fewer than `below` players."""
    a, b = venue.section_list
    Event.objects.filter(pk__in=[a.pk, b.pk]).update(preset="pokemon", best_of=1, **fields)
    Event.objects.filter(pk=a.pk).update(pair_with=b, pair_with_below=below)
    a.refresh_from_db()
    b.refresh_from_db()
    return a, b


def play(rnd: Round, by, winner_of=lambda m: "a") -> None:
    """Publish the round and enter every game: the side `winner_of` names wins."""
    publish_round(rnd, by)
    for m in rnd.matches.filter(player_b__isnull=False).order_by("table"):
        record_result(m, parse_outcome("1-0" if winner_of(m) == "a" else "0-1", 1), by)


# --- Combining ----------------------------------------------------------------------------------------------


def test_a_small_section_joins_its_partner_when_it_pairs_round_1(venue, organiser):
    a, b = pairing(venue, below=8)
    rnd = pair_next_round(a, organiser)
    assert rnd.event == b  # the pairing went on in the partner: one Swiss of twelve
    assert rnd.matches.filter(player_b__isnull=False).count() == 6
    assert not a.players.exists()
    divisions = dict(b.players.values_list("name", "division"))
    assert len(divisions) == 12
    assert {v for k, v in divisions.items() if k.startswith("A ")} == {"A"}
    assert {v for k, v in divisions.items() if k.startswith("B ")} == {"B"}
    assert joined_into(a) == b and joined_into(b) is None
    entry = EventLog.objects.get(event=a, action="divisions_joined")
    assert entry.detail == {"into": b.pk, "section": "A", "partner": "B", "players": 6} and entry.by == organiser
    assert EventLog.objects.filter(event=b, action="divisions_join").exists()
    # Their numbers are the venue's and stay theirs; keys are fresh in the partner.
    assert sorted(b.players.values_list("number", flat=True)) == list(range(1, 13))
    assert b.players.values("key").distinct().count() == 12


def test_the_partner_pairing_round_1_takes_the_small_section_in_too(venue, organiser):
    a, b = pairing(venue, below=7)
    rnd = pair_next_round(b, organiser)
    assert rnd.event == b and b.players.count() == 12 and joined_into(a) == b


def test_sections_above_the_threshold_pair_apart(venue, organiser):
    a, b = pairing(venue, below=6)  # six players each: neither has fewer than six
    rnd = pair_next_round(a, organiser)
    assert rnd.event == a and rnd.matches.count() == 3
    assert a.players.count() == b.players.count() == 6
    assert not Player.objects.exclude(division="").exists()
    assert joined_into(a) is None
    assert not EventLog.objects.filter(action__startswith="divisions_join").exists()
    # The first round decided: B's round 1 later does not join them either.
    assert pair_next_round(b, organiser).event == b and a.players.count() == 6


def test_a_joined_section_pairs_nothing_itself(venue, organiser):
    a, b = pairing(venue, below=8)
    pair_next_round(a, organiser)
    with pytest.raises(ServiceError, match="play in “B”"):
        pair_next_round(a, organiser)
    assert not a.rounds.exists() and b.rounds.count() == 1


def test_a_pairing_with_another_scoring_is_refused_and_moves_nobody(venue, organiser):
    a, b = pairing(venue, below=8)
    Event.objects.filter(pk=b.pk).update(win_points=2)
    with pytest.raises(ServiceError, match="same preset and scoring"):
        pair_next_round(a, organiser)
    assert a.players.count() == 6 and not Round.objects.exists()


# --- Ranked apart -------------------------------------------------------------------------------------------


@pytest.fixture
def joined(venue, organiser):
    """A (six juniors) joined B (six masters); three Swiss rounds played, the lower table number winning."""
    a, b = pairing(venue, below=8, top_cut=2, planned_rounds=3)
    for _ in range(3):
        play(pair_next_round(b, organiser), organiser)
    b.refresh_from_db()
    return b


@pytest.fixture
def joined_ten(venue, organiser):
    """As `joined`, with ten players in each division: enough for a top cut in each by Pokémon's attendance
    table (9 to 12 players: a top 4), the event's own top cut (2) the most either gets."""
    for section in venue.section_list:
        Player.objects.bulk_create(Player(event=section, name=f"{section.name} Late {c}", rating=1000) for c in "WXYZ")
    a, b = pairing(venue, below=12, top_cut=2, planned_rounds=3)
    for _ in range(3):
        play(pair_next_round(b, organiser), organiser)
    b.refresh_from_db()
    return b


def test_each_division_is_ranked_from_1_with_the_whole_swiss_tie_breakers(joined):
    result = event_standings(joined)
    juniors, masters = division_standings(joined, result)
    assert (juniors.name, masters.name) == ("A", "B")  # in the sections' order
    division = dict(joined.players.values_list("key", "division"))
    assert {division[r.player_id] for r in juniors.standings.rows} == {"A"}
    assert [r.rank for r in juniors.standings.rows][0] == 1 and [r.rank for r in masters.standings.rows][0] == 1
    overall = result.by_player()
    for r in juniors.standings.rows + masters.standings.rows:
        # The figures are the whole Swiss's (opponents of either division count); only the rank is the division's.
        assert r.tiebreakers == overall[r.player_id].tiebreakers and r.points == overall[r.player_id].points
    met = set(
        Match.objects.filter(round__event=joined, player_b__isnull=False).values_list(
            "player_a__division", "player_b__division"
        )
    )
    assert ("A", "B") in met or ("B", "A") in met  # paired together: juniors met masters


def test_the_standings_pages_show_one_table_per_division(joined, organiser, client):
    org = logged_in(organiser)
    for name in ("org_standings", "org_print_standings"):
        html = org.get(reverse(name, args=[joined.slug])).content.decode()
        assert html.count('<table class="standings">') == 2, name
        assert html.index(">A</h2>") < html.index(">B</h2>")
    public = client.get(reverse("public:standings", args=[joined.slug])).content.decode()
    assert public.count("<table") == 2 and ">A</h2>" in public and ">B</h2>" in public
    csv = org.get(reverse("org_export_standings", args=[joined.slug])).content.decode("utf-8-sig")
    header, *rows = [line.split(",") for line in csv.splitlines()]
    assert header[:2] == ["rank", "division"]
    assert [row[1] for row in rows] == ["A"] * 6 + ["B"] * 6
    assert rows[0][0] == rows[6][0] == "1"  # each division ranked from 1


# --- Cut and prized apart -----------------------------------------------------------------------------------


def test_each_division_has_its_own_top_cut_and_champion(joined_ten, organiser, client):
    joined = joined_ten
    juniors, masters = division_standings(joined, event_standings(joined))
    final = start_top_cut(joined, organiser)  # a top 2 in each division: two finals side by side
    by_key = {p.key: p for p in joined.players.all()}
    matches = list(final.matches.order_by("table"))
    assert [(m.table, m.player_a.division, m.player_b.division) for m in matches] == [(1, "A", "A"), (2, "B", "B")]
    assert [matches[0].player_a, matches[0].player_b] == [by_key[r.player_id] for r in juniors.standings.rows[:2]]
    assert [matches[1].player_a, matches[1].player_b] == [by_key[r.player_id] for r in masters.standings.rows[:2]]
    play(final, organiser, winner_of=lambda m: "b")  # both second seeds win
    assert joined.rounds.filter(kind=Round.Kind.ELIMINATION).count() == 1  # two finals: no further round
    placings = placings_by_division(joined)
    assert [(name, [p for _, p in placed]) for name, placed in placings] == [
        ("A", [matches[0].player_b, matches[0].player_a]),
        ("B", [matches[1].player_b, matches[1].player_a]),
    ]
    places = final_places(joined)
    assert sorted(places.values()) == sorted([*range(1, 11), *range(1, 11)])  # each division placed from 1
    page = client.get(reverse("public:bracket", args=[joined.slug])).content.decode()
    assert page.count('class="champion card"') == 2 and ">A</h2>" in page and ">B</h2>" in page
    org = logged_in(organiser).get(reverse("org_top_cut", args=[joined.slug])).content.decode()
    assert f"{matches[0].player_b.name} wins A" in org and f"{matches[1].player_b.name} wins B" in org


def test_a_top_4_per_division_plays_semifinals_then_two_finals(joined_ten, organiser):
    joined = joined_ten
    Event.objects.filter(pk=joined.pk).update(top_cut=4)
    joined.refresh_from_db()
    semis = start_top_cut(joined, organiser)
    assert semis.matches.count() == 4
    play(semis, organiser)
    finals = joined.rounds.get(number=semis.number + 1)
    pairs = [(m.player_a.division, m.player_b.division) for m in finals.matches.order_by("table")]
    assert pairs == [("A", "A"), ("B", "B")]
    assert stage_names(joined) == {semis.number: "Semifinals", finals.number: "Final"}


def test_a_division_too_small_for_the_top_cut_is_named(joined_ten, organiser):
    joined = joined_ten
    Event.objects.filter(pk=joined.pk).update(top_cut=4)
    joined.refresh_from_db()
    drop = list(joined.players.filter(division="A").order_by("pk").values_list("pk", flat=True)[:7])
    Player.objects.filter(pk__in=drop).update(dropped_after=3)  # three of ten left for A's top 4
    with pytest.raises(ServiceError, match="Division “A” has only 3 players"):
        start_top_cut(joined, organiser)


# --- The setting --------------------------------------------------------------------------------------------


def settings_post(org, section: Event, **changes):
    """Post the section's settings form as the page shows it, with `changes`."""
    from tournament.forms.event import EventSettingsForm

    form = EventSettingsForm(instance=section)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, list | tuple):
            data[name] = [str(v) for v in value]
        elif value is True:
            data[name] = "on"
        elif value is not None and value is not False:
            data[name] = str(value)
    data |= {k: str(v) for k, v in changes.items()}
    return org.post(reverse("org_settings", args=[section.slug]), data | {"save": "1"})


def test_a_section_sets_its_partner_on_its_settings_page(venue, organiser, event):
    a, b = pairing(venue, below=1)
    Event.objects.filter(pk=a.pk).update(pair_with=None, pair_with_below=None)
    a.refresh_from_db()
    org = logged_in(organiser)
    page = org.get(reverse("org_settings", args=[a.slug])).content.decode()
    assert "Pair with section" in page and f'<option value="{b.pk}">B</option>' in page
    assert f'value="{a.pk}"' not in page.split('name="pair_with"')[1].split("</select>")[0]  # not itself
    assert settings_post(org, a, pair_with=b.pk, pair_with_below=8).status_code == 302
    a.refresh_from_db()
    assert (a.pair_with, a.pair_with_below) == (b, 8)
    # An event without sections is not offered the setting.
    assert "Pair with section" not in org.get(reverse("org_settings", args=[event.slug])).content.decode()


def test_a_partner_of_another_scoring_a_chain_or_no_threshold_is_refused(venue, organiser):
    a, b = pairing(venue, below=1)
    Event.objects.filter(pk=a.pk).update(pair_with=None, pair_with_below=None)
    a.refresh_from_db()
    org = logged_in(organiser)
    refused = settings_post(org, a, pair_with=b.pk).content.decode()
    assert "Give the number of players" in refused
    Event.objects.filter(pk=b.pk).update(win_points=2)
    assert "another preset or scoring" in settings_post(org, a, pair_with=b.pk, pair_with_below=8).content.decode()
    Event.objects.filter(pk=b.pk).update(win_points=3, pair_with=a, pair_with_below=4)
    assert "no chains" in settings_post(org, a, pair_with=b.pk, pair_with_below=8).content.decode()
    a.refresh_from_db()
    assert a.pair_with is None


# --- The joined section's pages -----------------------------------------------------------------------------


def test_the_joined_section_pages_say_where_its_players_play(venue, organiser, client):
    a, b = pairing(venue, below=8)
    org = logged_in(organiser)
    response = org.post(reverse("org_round_pair", args=[a.slug]))
    assert response.status_code == 302 and response.url == reverse("org_round", args=[b.slug, 1])
    home = org.get(reverse("org_event", args=[a.slug])).content.decode()
    assert "The players of this section play in B" in home
    assert f'href="{reverse("org_event", args=[b.slug])}"' in home
    assert reverse("org_round_pair", args=[a.slug]) not in home  # it pairs nothing itself
    # A job's redirect to the section's round 1 leads to the partner's.
    assert org.get(reverse("org_round", args=[a.slug, 1])).url == reverse("org_round", args=[b.slug, 1])
    public = client.get(reverse("public:home", args=[a.slug])).content.decode()
    assert "The players of this section play in B" in public
    assert f'href="{reverse("public:home", args=[b.slug])}"' in public


def test_the_player_page_gives_the_rank_in_their_division(joined, client):
    juniors, _ = division_standings(joined, event_standings(joined))
    row = juniors.standings.rows[2]
    third = joined.players.get(key=row.player_id)
    public = client.get(reverse("public:player", args=[joined.slug, third.pk])).content.decode()
    assert f"Rank in A</dt><dd>{row.rank}</dd>" in public
    phone = Client()
    # The personal link the player got with their old section still leads to their page.
    old = reverse("player:link", args=[f"{joined.parent.slug}-a", third.pk, third.token])
    assert phone.get(old).url == reverse("player:link", args=[joined.slug, third.pk, third.token])
    assert phone.get(phone.get(old).url).status_code == 302
    me = phone.get(reverse("player:me", args=[joined.slug])).content.decode()
    assert f"Rank in A</dt><dd>{row.rank}</dd>" in me


def test_the_venue_screen_lists_each_division_ranked_from_1(joined, client):
    screen = client.get(reverse("public:screen", args=[joined.slug])).content.decode()
    assert '<li class="division"><span class="name"><strong>A</strong>' in screen
    first_a, first_b = screen.index("<strong>A</strong>"), screen.index("<strong>B</strong>")
    assert first_a < first_b
    assert (
        '<span class="rank">1</span>' in screen[first_a:first_b] and '<span class="rank">1</span>' in screen[first_b:]
    )


@pytest.mark.django_db(transaction=True)
def test_a_job_pairing_the_small_section_joins_it_too(venue, organiser, settings):
    settings.PAIR_IN_BACKGROUND_FROM = {"dutch": 5, "optimal": 5}  # six players: the worker pairs them
    a, b = pairing(venue, below=8)
    org = logged_in(organiser)
    org.post(reverse("org_round_pair", args=[a.slug]))
    job = Job.objects.get(event=a)
    work()
    job.refresh_from_db()
    assert job.state == "done" and joined_into(a) == b
    assert b.rounds.get().matches.filter(player_b__isnull=False).count() == 6 and not a.rounds.exists()
    done = org.get(status_url(job), headers={"HX-Request": "true"})
    assert org.get(done.headers["HX-Redirect"]).url == reverse("org_round", args=[b.slug, 1])


def test_a_joined_sections_public_home_never_says_it_has_not_started(venue, organiser, client):
    """Seen in the browser (tests/browser/test_sections_day.py): a Junior opening their section's home while round 1
    was played in the Seniors' read "Not started yet", and its search looked through a section with no players."""
    a, b = pairing(venue, below=8)
    play(pair_next_round(a, organiser), organiser)
    home = client.get(reverse("public:home", args=[a.slug])).content.decode()
    assert "The players of this section play in B" in home
    assert "Not started yet" not in home
    assert f'action="{reverse("public:pairings", args=[b.slug])}"' in home  # the search finds them in B
    assert (
        "Not started yet"
        not in client.get(reverse("public:home", args=[a.slug]), HTTP_HX_REQUEST="true").content.decode()
    )


def test_the_venues_home_and_screen_say_where_a_joined_sections_players_play(joined, venue, client):
    a = venue.section_list[0]
    home = client.get(reverse("public:home", args=[venue.slug])).content.decode()
    assert "Plays in B" in home and reverse("public:home", args=[joined.slug]) in home
    board = client.get(reverse("public:screen_panel", args=[a.slug])).content.decode()
    assert "Plays in B" in board and "Waiting for round 1" not in board
    other = client.get(reverse("public:screen_panel", args=[joined.slug])).content.decode()
    assert "Plays in" not in other
