"""Title norms on the web (docs/ratings.md, "Norms"): the organiser's norms page for a chess event that asks for
them (a role in the event, every player's norm, what they need, each condition; printed too; a bounded number of
queries), and the line on the player's own and public pages; an event that does not ask shows none of it."""

from dataclasses import replace

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from swiss.model import Player
from tests.engines.test_norms import DRAW, WIN, event, field
from tests.web.organiser.test_concurrency import logged_in
from tests.web.phone.test_player_page import me, phone
from tournament.models import Event, EventRole
from tournament.snapshot import import_event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def norm_event(slug="seekers", norms=True, extra=0, name="Seeker"):
    """The seeker (IM, NOR, 2500) has 6 from 8 against three GMs and six IMs of 2450; round 9 is paired with
    the ninth: half a point makes a GM norm (2450 + dp(6.5/9 = 0.72) = 2616). `extra` players who never play."""
    doc = event([WIN] * 4 + [DRAW] * 4, field(), paired_last=True)
    players = [replace(p, name=name) if p.id == "P" else p for p in doc.players]
    players += [Player(id=f"x{k}", name=f"Extra {k}", rating=2000, federation="NOR") for k in range(extra)]
    ev = import_event(replace(doc, players=tuple(players)), slug=slug)
    Event.objects.filter(pk=ev.pk).update(title_norms=norms)
    ev.refresh_from_db()
    return ev


def staffed(ev, organiser=None, judge=None):
    if organiser:
        EventRole.objects.create(event=ev, user=organiser, role=EventRole.Role.ORGANISER)
    if judge:
        EventRole.objects.create(event=ev, user=judge, role=EventRole.Role.JUDGE)
    return ev


def test_the_organiser_sees_each_norm_what_is_needed_and_each_condition(organiser):
    ev = staffed(norm_event(), organiser)
    c = logged_in(organiser)
    home = c.get(reverse("org_event", args=[ev.slug])).content.decode()
    assert reverse("org_norms", args=[ev.slug]) in home  # the event's navigation leads to it
    html = c.get(reverse("org_norms", args=[ev.slug])).content.decode()
    row = html[html.index("Seeker") : html.index("</tr>", html.index("Seeker"))]
    assert "6 from 8 games" in row and "<strong>Possible</strong>" in row and "½ from the last round" in row
    # The ninth game is paired: its opponent counts for every condition but the points.
    assert 'Title holders (CM and WCM do not count): 9 (at least 5) — <span class="norm-state">met' in row
    assert 'Games (played or paired): 9 (at least 9) — <span class="norm-state">met' in row
    assert 'Performance: 2575 (at least 2600) — <span class="norm-state">can be met' in row
    assert 'Federations other than the player&#x27;s: 3 (at least 2) — <span class="norm-state">met' in row
    assert "Points (at least 35 %): 6 (at least 3½)" in row
    assert reverse("org_print_norms", args=[ev.slug]) in html
    printed = c.get(reverse("org_print_norms", args=[ev.slug])).content.decode()
    assert "½ from the last round" in printed and "Seeker" in printed
    # The opponents are IMs and GMs already or men: none of them has a norm to look at, so none is listed.
    assert "Opp 1" not in html


def test_judges_may_look_strangers_may_not(organiser, judge, outsider):
    ev = staffed(norm_event(), organiser, judge)
    url = reverse("org_norms", args=[ev.slug])
    assert logged_in(judge).get(url).status_code == 200
    assert logged_in(outsider).get(url).status_code == 404
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    assert logged_in(outsider).get(reverse("org_print_norms", args=[ev.slug])).status_code == 404
    assert logged_in(organiser).post(url).status_code == 405


def test_a_norm_out_of_reach_is_listed_with_what_rules_it_out(organiser):
    # Two GMs of nine can never be a third: the GM norm is out of reach whatever the last round brings.
    doc = event([WIN] * 8, field(titles=("GM",) * 2 + ("IM",) * 7), paired_last=True)
    ev = staffed(import_event(doc, slug="few"), organiser)
    Event.objects.filter(pk=ev.pk).update(title_norms=True)
    html = logged_in(organiser).get(reverse("org_norms", args=[ev.slug])).content.decode()
    assert "No player has a norm in reach." in html
    out = html[html.index('<details class="norms-out">') :]
    assert "Norms out of reach: 8 players<" in out  # the seeker and the seven IMs who met them once
    assert "GM (Opponents with the norm&#x27;s title or a higher one 2 (at least 3))" in out


def test_the_players_line_on_the_phone_and_the_public_page():
    ev = norm_event()
    html = me(phone(ev, "Seeker"), ev).content.decode()
    assert '<p class="norm-line">You need ½ from the last round for a GM norm.</p>' in html
    public = Client().get(reverse("public:player", args=[ev.slug, ev.players.get(key="P").pk])).content.decode()
    assert "Seeker needs ½ from the last round for a GM norm." in public
    # An opponent (an IM, no woman) has no norm to look at: no line.
    assert "norm-line" not in me(phone(ev, "Opp 3"), ev).content.decode()


@pytest.mark.parametrize(
    ("language", "line"),
    [("ja", "GMノルムには残り1ラウンドで½点が必要です。"), ("da", "Du skal have ½ i sidste runde for en GM-norm.")],
)
def test_the_line_in_each_language(language, line):
    ev = norm_event()
    assert line in me(phone(ev, "Seeker", language), ev).content.decode()


def test_an_event_that_does_not_ask_shows_no_norms(organiser):
    ev = staffed(norm_event(norms=False), organiser)
    c = logged_in(organiser)
    assert reverse("org_norms", args=[ev.slug]) not in c.get(reverse("org_event", args=[ev.slug])).content.decode()
    html = c.get(reverse("org_norms", args=[ev.slug])).content.decode()
    assert "This event does not ask for title norms." in html and "Seeker" not in html
    assert "norm-line" not in me(phone(ev, "Seeker"), ev).content.decode()
    public = Client().get(reverse("public:player", args=[ev.slug, ev.players.get(key="P").pk])).content.decode()
    assert "norm-line" not in public and "GM norm" not in public


def test_names_are_escaped(organiser):
    ev = staffed(norm_event(name="Seeker <b>&</b>"), organiser)
    html = logged_in(organiser).get(reverse("org_norms", args=[ev.slug])).content.decode()
    assert "Seeker &lt;b&gt;&amp;&lt;/b&gt;" in html and "<b>&</b>" not in html
    public = Client().get(reverse("public:player", args=[ev.slug, ev.players.get(key="P").pk])).content.decode()
    assert "Seeker &lt;b&gt;&amp;&lt;/b&gt; needs ½" in public


def test_the_page_reads_as_many_queries_for_many_players(organiser):
    counts = []
    for slug, extra in (("small", 0), ("large", 60)):
        ev = staffed(norm_event(slug=slug, extra=extra), organiser)
        c = logged_in(organiser)
        with CaptureQueriesContext(connection) as queries:
            assert c.get(reverse("org_norms", args=[ev.slug])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_organiser_turns_norms_on_in_a_chess_events_settings(organiser, judge):
    from tests.web.organiser.test_organiser import settings_data

    ev = Event.objects.create(slug="club", name="Club", tiebreakers=["omw", "gw", "ogw"], planned_rounds=3)
    staffed(ev, organiser)
    c = logged_in(organiser)
    url = reverse("org_settings", args=[ev.slug])
    assert 'name="title_norms"' not in c.get(url).content.decode()  # not a chess event: no such setting
    assert c.post(url, settings_data(ev, preset="chess")).status_code == 302
    ev.refresh_from_db()
    assert 'name="title_norms"' in c.get(url).content.decode() and not ev.title_norms
    data = settings_data(ev, win_points="1", draw_points="1/2", loss_points="0", best_of=1, title_norms="on")
    assert c.post(url, data).status_code == 302
    ev.refresh_from_db()
    assert ev.title_norms
    assert reverse("org_norms", args=[ev.slug]) in c.get(reverse("org_event", args=[ev.slug])).content.decode()
    assert "No player has a norm in reach." in c.get(reverse("org_norms", args=[ev.slug])).content.decode()
