"""The venue's public pages (docs/sections.md, "Public pages"): one address and one screen for an event with
sections, and the section's own pages naming their event."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.web.public.test_public import pair, text
from tournament.models import Event, Player, Round
from tournament.services.locks import changed
from tournament.services.results import Outcome, record_result
from tournament.services.rounds import publish_round
from tournament.services.top_cut import start_top_cut

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def sections(venue) -> tuple[Event, Event]:
    a, b = venue.section_list
    return a, b


def start_a(venue) -> Round:
    """Section A plays round 1 (three tables); section B is still registering."""
    a, _b = sections(venue)
    names = [f"A Player {c}" for c in "ABCDEF"]
    return pair(a, 1, list(zip(names[::2], names[1::2], strict=True)))


def get(path: str, client: Client | None = None, **headers):
    return (client or Client()).get(path, **headers)


# --- The event's home --------------------------------------------------------------------------------


def test_the_event_home_lists_its_sections_with_where_each_is(venue):
    start_a(venue)
    a, b = sections(venue)
    page = get(reverse("public:home", args=[venue.slug]))
    assert page.status_code == 200
    words = text(page)
    assert "Regionals" in words and "2 sections" in words
    assert re.search(r"A Round 1 in progress 6 players", words)
    assert re.search(r"B Registration 6 players", words)
    html = page.content.decode()
    assert f'href="/e/{a.slug}/"' in html and f'href="/e/{b.slug}/"' in html


def test_a_finished_round_and_a_finished_section_say_so(venue):
    rnd = start_a(venue)
    a, _b = sections(venue)
    Round.objects.filter(pk=rnd.pk).update(state=Round.State.COMPLETE)
    changed(a)
    assert "A Round 1 finished" in text(get(reverse("public:home", args=[venue.slug])))
    Event.objects.filter(pk=a.pk).update(planned_rounds=1)
    changed(a)
    assert "A Finished" in text(get(reverse("public:home", args=[venue.slug])))


def test_a_section_in_its_top_cut_links_to_its_bracket(venue, organiser):
    """Seen in the browser (tests/browser/test_sections_day.py): a section playing its top cut offered its standings
    only, with no way from the event's address to the matches being played."""
    rnd = start_a(venue)
    a, _b = sections(venue)
    for m in rnd.matches.all():
        record_result(m, Outcome("played", (2, 0, 0)), organiser)
    Event.objects.filter(pk=a.pk).update(planned_rounds=1, top_cut=2)
    a.refresh_from_db()
    publish_round(start_top_cut(a, organiser), organiser)
    page = get(reverse("public:home", args=[venue.slug]))
    assert "A Top cut: Final" in text(page)
    assert f'href="{reverse("public:bracket", args=[a.slug])}"' in page.content.decode()


def test_an_event_without_sections_keeps_its_own_home(event):
    page = get(reverse("public:home", args=[event.slug]))
    assert page.status_code == 200
    assert "Find your table" in text(page) and "Sections" not in text(page)


# --- The search across sections ----------------------------------------------------------------------


def test_the_search_finds_players_in_every_section_with_their_section_and_table(venue):
    start_a(venue)
    a, b = sections(venue)
    page = get(reverse("public:pairings", args=[venue.slug]) + "?q=player c")
    words = text(page)
    assert "2 players match “player c”." in words
    assert re.search(r"A Player C #3 A 2 A Player D", words)
    assert re.search(r"B Player C #9 B — Not paired yet", words)
    html = page.content.decode()
    c_of_a = a.players.get(name="A Player C")
    assert f'href="/e/{a.slug}/players/{c_of_a.pk}/"' in html


def test_the_search_finds_a_player_by_number(venue):
    b_player = Player.objects.get(event__parent=venue, number=10)
    words = text(get(reverse("public:pairings", args=[venue.slug]) + "?q=10"))
    assert "1 player matches “10”." in words and f"{b_player.name} #10 B" in words


def test_the_search_says_when_nobody_is_found_and_its_page_lists_the_sections(venue):
    assert "Nobody’s name contains “zz”." in text(get(reverse("public:pairings", args=[venue.slug]) + "?q=zz"))
    page = get(reverse("public:pairings", args=[venue.slug]))
    assert page.status_code == 200
    assert 'href="/e/regionals-a/pairings/"' in page.content.decode()


def test_the_search_keeps_the_search_limit(venue, settings):
    settings.PUBLIC_SEARCHES = 2
    path = reverse("public:pairings", args=[venue.slug])
    statuses = [get(f"{path}?q=a{k}", REMOTE_ADDR="10.9.9.9").status_code for k in range(4)]
    assert statuses[:2] == [200, 200] and statuses[-1] == 429


# --- Players' codes at the event's address -----------------------------------------------------------


def test_a_code_typed_at_the_event_address_opens_the_players_page_in_their_section(venue):
    _a, b = sections(venue)
    player = b.players.get(name="B Player B")
    client = Client()
    response = client.post(reverse("player:code", args=[venue.slug]), {"code": player.card_code})
    assert response.status_code == 302 and response["Location"] == reverse("player:me", args=[b.slug])
    me = client.get(response["Location"])
    assert me.status_code == 200
    words = text(me)
    assert "B Player B" in words and "Regionals › B" in words


def test_a_wrong_code_at_the_event_address_is_refused_and_takes_the_same_turn(venue):
    _a, b = sections(venue)
    player = b.players.get(name="B Player A")
    wrong = f"{player.number}-{'A' * 8 if player.code != 'A' * 8 else 'C' * 8}"
    response = Client().post(reverse("player:code", args=[venue.slug]), {"code": wrong}, REMOTE_ADDR="10.1.1.1")
    assert response.status_code == 400 and "code is not right" in text(response)
    # The turn is the phone's address's (no key: the address's alone), whichever address of the venue it was typed
    # at; no budget names the number, so nobody can lock another player's code by guessing it.
    from tournament.models import CodeBudget

    assert list(CodeBudget.objects.values_list("scope", flat=True)) == ["address:10.1.1.1"]


def test_a_code_typed_at_a_sections_address_finds_the_player_wherever_they_play_now(venue, organiser):
    from tournament.models import CodeBudget
    from tournament.services.sections import move_player

    a, b = sections(venue)
    player = a.players.get(name="A Player B")
    move_player(player, b, organiser)  # the card they hold was printed at A's address
    player.refresh_from_db()
    client = Client()
    response = client.post(reverse("player:code", args=[a.slug]), {"code": player.card_code}, REMOTE_ADDR="10.1.1.2")
    assert response.status_code == 302 and response["Location"] == reverse("player:me", args=[b.slug])
    assert "A Player B" in text(client.get(response["Location"]))
    # A wrong code there takes its turn from the same budget as at the event's address: the address's, never one
    # of the number (the right code above gave its turn back).
    wrong = f"{player.number}-{'A' * 8 if player.code != 'A' * 8 else 'C' * 8}"
    response = Client().post(reverse("player:code", args=[a.slug]), {"code": wrong}, REMOTE_ADDR="10.1.1.2")
    assert response.status_code == 400 and "code is not right" in text(response)
    spent = CodeBudget.objects.get(scope="address:10.1.1.2").full_at
    Client().post(reverse("player:code", args=[venue.slug]), {"code": wrong}, REMOTE_ADDR="10.1.1.2")
    assert list(CodeBudget.objects.values_list("scope", flat=True)) == ["address:10.1.1.2"]
    assert CodeBudget.objects.get(scope="address:10.1.1.2").full_at > spent


# --- The venue screen ----------------------------------------------------------------------------


def panel_path(section: Event) -> str:
    return reverse("public:screen_panel", args=[section.slug])


def test_the_screen_is_a_shell_naming_each_section_whose_board_is_fetched_apart(venue):
    start_a(venue)
    a, b = sections(venue)
    path = reverse("public:screen", args=[venue.slug])
    turns = get(path).content.decode()
    assert 'class="venue layout-turns"' in turns
    # One placeholder a section, named and asking for the section's board; no section's rows.
    assert turns.count('class="board panel pending"') == 2
    for section in (a, b):
        assert f'id="panel-{section.pk}" aria-label="{section.name}" hx-get="{panel_path(section)}"' in turns
    assert "A Player" not in turns and "Waiting for round 1" not in turns and "board-list" not in turns
    side = get(path + "?layout=side").content.decode()
    assert 'class="venue layout-side"' in side and side.count('class="board panel pending"') == 2
    # The chooser, and the layout kept in the address the shell polls.
    assert 'href="?layout=side"' in turns and 'href="?layout=turns"' in side
    assert f'hx-get="{path}?layout=side"' in side
    assert get(path + "?layout=nonsense").content.decode().count('class="venue layout-turns"') == 1


def test_each_sections_board_is_a_fragment_of_that_section_alone(venue):
    start_a(venue)
    a, b = sections(venue)
    board_a = get(panel_path(a), HTTP_HX_REQUEST="true").content.decode()
    assert board_a.lstrip().startswith("<section") and "<html" not in board_a
    assert board_a.count('class="board panel"') == 1 and f'id="panel-{a.pk}"' in board_a
    assert "A Player A" in board_a and "B Player" not in board_a
    # It polls itself, and says "Page 1 of 2" in the page's language.
    assert f'hx-get="{panel_path(a)}" hx-trigger="every 5s" hx-swap="outerHTML"' in board_a
    assert 'data-page-text="Page {page} of {pages}"' in board_a
    board_b = get(panel_path(b)).content.decode()
    assert "Waiting for round 1" in board_b and "A Player" not in board_b


def test_a_result_in_one_section_makes_only_that_sections_board_again(venue, organiser, django_assert_num_queries):
    rnd = start_a(venue)
    a, b = sections(venue)
    shell = reverse("public:screen", args=[venue.slug]) + "?layout=side"
    tags = {path: get(path)["ETag"] for path in (shell, panel_path(a), panel_path(b))}
    for path, tag in tags.items():
        with django_assert_num_queries(1):
            assert get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304
    record_result(rnd.matches.get(table=1), Outcome("played", (2, 0, 0)), organiser)
    # The shell shows no section's round, and B's board did not change: both still 304.
    assert get(shell, HTTP_IF_NONE_MATCH=tags[shell]).status_code == 304
    assert get(panel_path(b), HTTP_IF_NONE_MATCH=tags[panel_path(b)]).status_code == 304
    again = get(panel_path(a), HTTP_IF_NONE_MATCH=tags[panel_path(a)])
    assert again.status_code == 200 and again["ETag"] != tags[panel_path(a)]
    # The table whose result is in is dimmed.
    assert '<li class="done"><span class="name">A Player A' in again.content.decode()


def test_the_shell_is_made_again_when_a_section_is_renamed_or_hidden(venue):
    a, b = sections(venue)
    shell = reverse("public:screen", args=[venue.slug])
    first = get(shell)
    Event.objects.filter(pk=a.pk).update(name="Open")
    changed(a)
    renamed = get(shell, HTTP_IF_NONE_MATCH=first["ETag"])
    assert renamed.status_code == 200 and 'aria-label="Open"' in renamed.content.decode()
    Event.objects.filter(pk=b.pk).update(public=False)
    changed(b)
    hidden = get(shell, HTTP_IF_NONE_MATCH=renamed["ETag"])
    assert hidden.status_code == 200 and f'id="panel-{b.pk}"' not in hidden.content.decode()


def test_a_board_is_only_a_shown_sections(venue, judge):
    a, b = sections(venue)
    Event.objects.filter(pk=b.pk).update(public=False)
    changed(b)
    assert get(panel_path(b)).status_code == 404
    staff = Client()
    staff.force_login(judge)
    assert staff.get(panel_path(b)).status_code == 200
    Event.objects.filter(pk=venue.pk).update(public=False)
    changed(venue)
    assert get(panel_path(a)).status_code == 404


# --- A section's pages ---------------------------------------------------------------------------


def test_a_sections_pages_name_their_event_first_with_a_link_to_it(venue):
    a, _b = sections(venue)
    for name in ("home", "pairings", "standings"):
        page = get(reverse(f"public:{name}", args=[a.slug]))
        assert page.status_code == 200
        assert "Regionals › A" in text(page)
        assert f'<a href="/e/{venue.slug}/">Regionals</a>' in page.content.decode()


# --- Caching -------------------------------------------------------------------------------------


def test_a_result_in_one_section_leaves_the_other_sections_pages_cached(venue, organiser, django_assert_num_queries):
    a, b = sections(venue)
    rnd = start_a(venue)
    names = [f"B Player {c}" for c in "ABCDEF"]
    pair(b, 1, list(zip(names[::2], names[1::2], strict=True)))
    b_pages = [reverse(f"public:{n}", args=[b.slug]) for n in ("home", "pairings", "screen", "screen_panel")]
    tags = {path: get(path)["ETag"] for path in b_pages}
    record_result(rnd.matches.get(table=1), Outcome("played", (2, 0, 0)), organiser)
    b.refresh_from_db()
    for path in b_pages:
        # B's version did not move: B's phones are told "unchanged", and its pages come from the cache.
        assert get(path, HTTP_IF_NONE_MATCH=tags[path]).status_code == 304
        with django_assert_num_queries(1):
            assert get(path)["ETag"] == tags[path]


def test_the_venue_pages_read_the_event_and_its_sections_in_one_query(venue, django_assert_num_queries):
    start_a(venue)
    a, _b = sections(venue)
    paths = [reverse(f"public:{name}", args=[venue.slug]) for name in ("home", "pairings", "screen")]
    for path in [*paths, reverse("public:screen_panel", args=[a.slug])]:
        first = get(path)
        with django_assert_num_queries(1):
            assert get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        with django_assert_num_queries(1):
            assert get(path).status_code == 200


# --- Hidden sections and events ------------------------------------------------------------------


def test_a_hidden_section_is_left_out_for_the_public_and_shown_to_staff(venue, judge):
    a, b = sections(venue)
    Event.objects.filter(pk=b.pk).update(public=False)
    changed(b)
    for name in ("home", "pairings", "screen"):
        path = reverse(f"public:{name}", args=[venue.slug])
        assert "B Player" not in get(path + ("?q=player" if name == "pairings" else "")).content.decode()
    assert get(reverse("public:home", args=[b.slug])).status_code == 404
    staff = Client()
    staff.force_login(judge)
    assert 'href="/e/regionals-b/"' in staff.get(reverse("public:home", args=[venue.slug])).content.decode()
    assert staff.get(reverse("public:home", args=[b.slug])).status_code == 200


def test_a_hidden_event_hides_its_sections_and_its_address(venue):
    a, _b = sections(venue)
    Event.objects.filter(pk=venue.pk).update(public=False)
    changed(venue)
    for path in (
        reverse("public:home", args=[venue.slug]),
        reverse("public:screen", args=[venue.slug]),
        reverse("public:pairings", args=[a.slug]),
        reverse("player:code", args=[venue.slug]),
    ):
        assert get(path).status_code == 404, path
