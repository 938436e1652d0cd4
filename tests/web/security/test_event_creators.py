"""Who may create events, and how often an account may start heavy work (hardening: any signed-in account
with no role once created an event and paired 2,000 players)."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, pair
from tournament.models import Event, Round

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def new_event(client: Client, name: str):
    data = {"name": name, "date": "2026-12-05", "preset": "mtg", "top_cut": 0, "round_minutes": 50}
    return client.post(reverse("org_event_new"), data)


def test_an_account_without_the_permission_may_not_create_events(outsider):
    client = signed_in(outsider)
    page = client.get(reverse("org_event_new"))
    assert page.status_code == 403 and "Can add event" in page.content.decode()
    assert new_event(client, "Not Mine").status_code == 403
    trf = client.post(reverse("org_event_import_trf"), {})
    assert trf.status_code == 403
    assert not Event.objects.exists()
    listing = client.get(reverse("event_list")).content.decode()
    assert reverse("org_event_new") not in listing and "invite you" in listing


def test_an_account_given_the_permission_and_the_organiser_may(outsider, organiser):
    assert new_event(signed_in(organiser), "Olga's").status_code == 302
    outsider.user_permissions.add(Permission.objects.get(codename="add_event", content_type__app_label="tournament"))
    assert new_event(signed_in(outsider), "Otto's").status_code == 302
    assert set(Event.objects.values_list("name", flat=True)) == {"Olga's", "Otto's"}


def test_open_creation_lets_any_account(outsider, settings):
    settings.EVENT_CREATION = "open"
    assert new_event(signed_in(outsider), "Open to all").status_code == 302


def test_heavy_actions_have_a_per_account_budget(organiser, event, settings):
    settings.HEAVY_ACTIONS, settings.HEAVY_ACTION_SECONDS = 3, 600
    client = signed_in(organiser)
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    url = reverse("org_round_pair", args=[event.slug])
    home = reverse("org_event", args=[event.slug])
    assert client.post(url, HTTP_REFERER="http://testserver" + home).status_code == 302  # round 2 paired
    repair = reverse("org_round_repair", args=[event.slug, 2])
    assert client.post(repair).status_code == 302
    assert new_event(client, "Third").status_code == 302
    refused = client.post(repair, HTTP_REFERER="http://testserver" + home, follow=True)
    assert "Too many pairings and imports from your account" in refused.content.decode()
    assert refused.redirect_chain[0][0] == "http://testserver" + home
    assert event.rounds.get(number=2).seed is not None
    assert Event.objects.count() == 2
    # Another account is not held back by this one.
    other = organiser.__class__.objects.create_user("owen", password="x" * 12)
    other.user_permissions.add(Permission.objects.get(codename="add_event", content_type__app_label="tournament"))
    assert new_event(signed_in(other), "Owen's").status_code == 302
