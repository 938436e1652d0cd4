"""A CDN or nginx may keep a public page for PUBLIC_MAX_AGE seconds (docs/deployment.md), never a page that depends on the
visitor: the player's own page, a signed-in visitor's, a search, a hidden event's, or the page of a phone that
has just reported (its own result shows at once)."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.web.phone.test_self_report import match_of, phone, player, report
from tournament.infra.routers import WROTE_COOKIE
from tournament.models import Event
from tournament.services import locks

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def five_seconds(settings):
    settings.PUBLIC_MAX_AGE = 5
    cache.clear()


def directives(response) -> set[str]:
    return {d.strip() for d in response["Cache-Control"].split(",")}


# Shared caches keep it 5 s (a CDN as long again while it asks); a phone's own browser asks every time.
SHARED = {"public", "max-age=0", "s-maxage=5"}


@pytest.mark.parametrize("page", ["home", "pairings", "standings", "screen", "crosstable"])
def test_a_public_page_may_be_kept_by_a_shared_cache_for_a_few_seconds(live, page):
    url = reverse(f"public:{page}", args=[live.slug])
    first = Client().get(url)
    assert first.status_code == 200 and directives(first) == SHARED
    assert first["CDN-Cache-Control"] == "max-age=5, stale-while-revalidate=5"
    assert {"Cookie", "Accept-Language", "HX-Request"} <= {v.strip() for v in first["Vary"].split(",")}
    # Asked again after the seconds: the same ETag per event version, a 304 with the same rule.
    again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and directives(again) == SHARED and again["ETag"] == first["ETag"]
    locks.changed(live)
    changed = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_a_signed_in_visitor_is_never_served_from_a_shared_cache(live, organiser):
    c = Client()
    c.force_login(organiser)
    r = c.get(reverse("public:pairings", args=[live.slug]))
    assert directives(r) == {"no-cache"}


def test_a_phone_that_has_just_reported_asks_every_time(live):
    pairings = reverse("public:pairings", args=[live.slug])
    a = phone(player(live, "Player A"))
    assert directives(a.get(pairings)) == SHARED  # a player's cookie alone chooses nothing on public pages
    report(a, live, match_of(live, "Player A"), "2-0")
    assert WROTE_COOKIE in a.cookies
    assert directives(a.get(pairings)) == {"no-cache"}


def test_the_players_own_page_a_search_and_a_hidden_event_are_never_shared(live, organiser):
    own = phone(player(live, "Player A")).get(reverse("player:me", args=[live.slug]))
    assert "public" not in directives(own) and "private" in directives(own)
    search = Client().get(reverse("public:pairings", args=[live.slug]), {"q": "Player"})
    assert search.status_code == 200 and directives(search) == {"no-cache"}
    Event.objects.filter(pk=live.pk).update(public=False)
    c = Client()
    c.force_login(organiser)
    hidden = c.get(reverse("public:pairings", args=[live.slug]))
    assert directives(hidden) == {"no-cache", "private"}
