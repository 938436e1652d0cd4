"""Choosing the language (docs/languages.md): the visitor's cookie, then Accept-Language naming one of ours,
then the event's language on public pages; every page says which in <html lang>; public renderings
are cached, tagged and varied per language."""

import re
from urllib.parse import quote

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tournament.models import Event, LanguagePreference

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def html_lang(response) -> str:
    return re.search(rb'<html lang="([^"]+)"', response.content).group(1).decode()


@pytest.fixture
def danish_event(event):
    Event.objects.filter(pk=event.pk).update(language="da")
    event.refresh_from_db()
    return event


PUBLIC = ["public:home", "public:pairings", "public:standings", "public:screen", "public:bracket"]


@pytest.mark.parametrize("name", PUBLIC)
def test_public_page_speaks_the_events_language_when_the_browser_names_none_of_ours(client, danish_event, name):
    url = reverse(name, args=[danish_event.slug])
    assert html_lang(client.get(url)) == "da"
    assert html_lang(client.get(url, headers={"Accept-Language": "fr-FR,fr;q=0.9"})) == "da"


def test_accept_language_naming_one_of_ours_beats_the_event_language(client, danish_event):
    url = reverse("public:home", args=[danish_event.slug])
    r = client.get(url, headers={"Accept-Language": "fr;q=1, ja-JP;q=0.8, da;q=0.5"})
    assert html_lang(r) == "ja" and r["Content-Language"] == "ja"
    assert html_lang(client.get(url, headers={"Accept-Language": "en-GB,en;q=0.9"})) == "en"


def test_the_visitors_choice_beats_the_browser_and_the_event(client, danish_event):
    page = reverse("public:pairings", args=[danish_event.slug])
    r = client.get(reverse("set_language", args=["ja"]) + f"?next={page}")
    assert r.status_code == 302 and r["Location"] == page
    assert r.cookies[COOKIE].value == "ja" and r.cookies[COOKIE]["httponly"]
    r = client.get(page, headers={"Accept-Language": "da"})
    assert html_lang(r) == "ja"
    assert 'aria-label="言語"' in r.content.decode()


def test_the_switcher_is_on_every_public_page_and_returns_to_it(client, event):
    for name in ["public:home", "public:pairings", "public:standings", "public:bracket", "public:screen"]:
        url = reverse(name, args=[event.slug])
        body = client.get(url).content.decode()
        for code in ("en", "ja", "da"):
            assert f'href="/language/{code}/?next={quote(url)}"' in body, (name, code)


def test_the_switcher_refuses_other_sites_and_unknown_languages(client):
    r = client.get(reverse("set_language", args=["da"]) + "?next=https://evil.example/")
    assert r.status_code == 302 and r["Location"] == "/"
    assert client.get(reverse("set_language", args=["xx"])).status_code == 404
    assert client.post(reverse("set_language", args=["da"])).status_code == 405


def test_organiser_pages_follow_the_persons_choice_not_the_events_language(client, organiser, danish_event):
    client.force_login(organiser)
    url = reverse("org_event", args=[danish_event.slug])
    assert html_lang(client.get(url)) == "en"
    client.cookies[COOKIE] = "ja"
    r = client.get(url, headers={"Accept-Language": "da"})
    assert html_lang(r) == "ja"
    assert f'href="/language/da/?next={quote(url)}"' in r.content.decode()


def test_login_page_follows_the_browser(client):
    assert html_lang(client.get(reverse("login"), headers={"Accept-Language": "da-DK"})) == "da"


def test_a_rendering_is_cached_and_tagged_per_language(client, event):
    url = reverse("public:standings", args=[event.slug])
    en = client.get(url)
    ja = client.get(url, headers={"Accept-Language": "ja"})
    assert en["ETag"] != ja["ETag"]
    assert html_lang(en) == "en" and html_lang(ja) == "ja"
    for header in ("Accept-Language", "Cookie", "HX-Request"):
        assert header in ja["Vary"]
    # A phone that switched language does not get a 304 for the page it holds in the other one.
    r = client.get(url, headers={"Accept-Language": "da", "If-None-Match": ja["ETag"]})
    assert r.status_code == 200 and html_lang(r) == "da"
    r = client.get(url, headers={"Accept-Language": "ja", "If-None-Match": ja["ETag"]})
    assert r.status_code == 304
    # The cached rendering of one language is not served in another.
    assert html_lang(client.get(url, headers={"Accept-Language": "ja"})) == "ja"
    assert html_lang(client.get(url)) == "en"


def test_the_organiser_sets_the_events_language(client, organiser, event):
    from tests.web.organiser.test_organiser import settings_data

    client.force_login(organiser)
    r = client.post(reverse("org_settings", args=[event.slug]), settings_data(event, language="ja"))
    assert r.status_code == 302
    event.refresh_from_db()
    assert event.language == "ja"
    client.logout()
    assert html_lang(client.get(reverse("public:screen", args=[event.slug]))) == "ja"


def test_the_settings_page_offers_the_events_language(client, organiser, event):
    client.force_login(organiser)
    body = client.get(reverse("org_settings", args=[event.slug])).content.decode()
    assert 'name="language"' in body and ">日本語</option>" in body and ">Dansk</option>" in body


def test_the_switcher_names_each_language_in_itself(client, event):
    body = client.get(reverse("public:home", args=[event.slug]), headers={"Accept-Language": "ja"}).content.decode()
    names = re.findall(r'hreflang="(\w+)"[^>]*>([^<]+)</a>', body)
    assert names == [("en", "English"), ("ja", "日本語"), ("da", "Dansk")]


def test_a_request_leaves_the_threads_language_as_it_was(client, event):
    from django.utils import translation

    before = translation.get_language()
    client.get(reverse("public:home", args=[event.slug]), headers={"Accept-Language": "ja"})
    assert translation.get_language() == before


# ---------------------------------------------------------------- the language kept on the account


def signed_in(organiser) -> Client:
    """A new device: its own cookies, signed in through the login form."""
    device = Client()
    r = device.post(reverse("login"), {"username": organiser.username, "password": "organiser-pass-1"})
    assert r.status_code == 302
    return device


def test_choosing_a_language_signed_in_keeps_it_on_the_account(client, organiser, event):
    client.force_login(organiser)
    assert client.get(reverse("set_language", args=["ja"]) + "?next=/").status_code == 302
    assert LanguagePreference.objects.get(user=organiser).language == "ja"
    client.get(reverse("set_language", args=["da"]))
    assert LanguagePreference.objects.get(user=organiser).language == "da"
    # A visitor's choice is theirs alone: nothing is stored without an account.
    Client().get(reverse("set_language", args=["ja"]))
    assert LanguagePreference.objects.count() == 1


def test_signing_in_on_another_device_brings_the_accounts_language_and_the_cookie_follows(organiser, event):
    desk = signed_in(organiser)
    desk.get(reverse("set_language", args=["ja"]))
    phone = Client()
    phone.cookies[COOKIE] = "da"  # this device's own earlier choice
    phone.post(reverse("login"), {"username": "olga", "password": "organiser-pass-1"})
    assert phone.cookies[COOKIE].value == "ja"
    url = reverse("org_event", args=[event.slug])
    assert html_lang(phone.get(url, headers={"Accept-Language": "da"})) == "ja"
    # Public pages keep the visitor's order; the cookie now says ja.
    assert html_lang(phone.get(reverse("public:standings", args=[event.slug]))) == "ja"


def test_the_account_language_comes_before_the_devices_cookie_on_organiser_pages_only(client, organiser, danish_event):
    LanguagePreference.objects.create(user=organiser, language="ja")
    tablet = signed_in(organiser)
    tablet.cookies[COOKIE] = "en"  # set by hand, or a switch made before signing in elsewhere
    r = tablet.get(reverse("org_event", args=[danish_event.slug]))
    assert html_lang(r) == "ja" and r.cookies[COOKIE].value == "ja"  # and the cookie follows
    tablet.cookies[COOKIE] = "en"
    public = tablet.get(reverse("public:standings", args=[danish_event.slug]))
    assert html_lang(public) == "en" and COOKIE not in public.cookies  # the visitor's cookie rules there
    # Without a stored choice, organiser pages follow the cookie as before.
    LanguagePreference.objects.all().delete()
    fresh = signed_in(organiser)
    fresh.cookies[COOKIE] = "da"
    assert html_lang(fresh.get(reverse("org_event", args=[danish_event.slug]))) == "da"


def test_signing_out_and_in_as_someone_else_drops_the_first_accounts_language(organiser, judge, event):
    LanguagePreference.objects.create(user=organiser, language="ja")
    kiosk = signed_in(organiser)
    assert html_lang(kiosk.get(reverse("event_list"))) == "ja"
    kiosk.post(reverse("logout"))
    kiosk.cookies[COOKIE] = "en"
    kiosk.post(reverse("login"), {"username": judge.username, "password": "judge-pass-1"})
    assert html_lang(kiosk.get(reverse("event_list"))) == "en"
