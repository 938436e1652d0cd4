"""Values a browser reads in a fixed format: a date, time or number input holds ISO dates and
dot decimals in every language. A Danish date ("06.12.2026") in an `<input type="date">` shows as empty, and
the form saved from it is refused, so these pages are submitted back as a browser would, in each language."""

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from tournament.models import Event

LANGUAGES = ["en", "ja", "da"]
# What the browser accepts for each input type (HTML's "valid date string", "valid floating-point number").
VALID = {
    "date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "time": re.compile(r"\d{2}:\d{2}(:\d{2})?"),
    "datetime-local": re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?"),
    "number": re.compile(r"-?\d+(\.\d+)?"),
}


class FormFields(HTMLParser):
    """The inputs of the first form with a given id (or all forms), as a browser would submit them."""

    def __init__(self, form_id=None):
        super().__init__()
        self.form_id, self.inside, self.select = form_id, form_id is None, None
        self.inputs: list[dict] = []
        self.data: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and self.form_id is not None:
            self.inside = a.get("id") == self.form_id
        if not self.inside:
            return
        if tag == "input":
            self.inputs.append(a)
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind not in ("submit", "button") and a.get("name"):
                self.data.setdefault(a["name"], []).append(a.get("value") or ("on" if kind == "checkbox" else ""))
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select and "selected" in a:
            self.data.setdefault(self.select, []).append(a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        if tag == "form" and self.form_id is not None:
            self.inside = False


def fields(body: str, form_id=None) -> FormFields:
    parser = FormFields(form_id)
    parser.feed(body)
    return parser


def assert_browser_formats(body: str) -> int:
    """Every date, time and number input of the page holds a value the browser can show; returns how many."""
    checked = 0
    for a in fields(body).inputs:
        kind = a.get("type", "text")
        if kind in VALID and a.get("value"):
            assert VALID[kind].fullmatch(a["value"]), f"{a.get('name')}: {a['value']!r} in <input type={kind}>"
            checked += 1
    return checked


@pytest.fixture
def speaking(client, organiser):
    client.force_login(organiser)

    def speak(language):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        return client

    return speak


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_new_event_starts_with_today_as_iso_and_saves_in_every_language(any_day, speaking, language):
    client = speaking(language)
    body = client.get(reverse("org_event_new")).content.decode()
    today = timezone.localdate().isoformat()
    assert f'type="date" name="date" value="{today}"' in body
    assert assert_browser_formats(body) >= 3  # date, rounds, round length
    data = {k: v for k, v in fields(body, None).data.items() if k != "csrfmiddlewaretoken"}
    data.update(name=f"Kyoto Open {language}")
    response = client.post(reverse("org_event_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Event.objects.get(name=f"Kyoto Open {language}").date.isoformat() == today


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_settings_are_saved_as_the_browser_sends_them_in_every_language(speaking, event, language):
    client = speaking(language)
    event.date = "2026-12-06"
    event.bye_rating = 1500
    event.save()
    url = reverse("org_settings", args=[event.slug])
    body = client.get(url).content.decode()
    assert 'value="2026-12-06"' in body and 'value="1500"' in body
    assert assert_browser_formats(body) >= 4
    data = fields(body, "settings-form").data
    data.update(language=[language], save=["1"])
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    event.refresh_from_db()
    assert event.language == language and event.date.isoformat() == "2026-12-06" and event.bye_rating == 1500


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_player_edit_and_round_pages_hold_browser_formats(speaking, event, language):
    from tests.web.public.test_public import ROUND_1, pair

    client = speaking(language)
    player = event.players.first()
    player.fixed_table, player.rating = 1200, 2105
    player.save()
    body = client.get(reverse("org_player_edit", args=[event.slug, player.pk])).content.decode()
    assert assert_browser_formats(body) >= 2 and 'value="2105"' in body and 'value="1200"' in body
    pair(event, 1, ROUND_1)
    body = client.get(reverse("org_round", args=[event.slug, 1])).content.decode()
    assert_browser_formats(body)
    assert not re.search(r'type="(date|time|number)"[^>]*value="[^"]*[,.]\d{3}', body)
