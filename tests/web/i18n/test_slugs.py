"""An event's address reads as its name: kana and kanji stay (an IRI), Danish letters are spelled as Danes
write them without them (Aarhus), other accents fall away. Every page, the player's cookie and the event
file work with such a slug."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from swiss import eventfile as ef
from tournament.models import Event, EventRole, Player
from tournament.services.staff import insert_with_new_slug
from tournament.snapshot import event_to_file, import_event
from tournament.text.slugs import slug_text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("京都オープン", "京都オープン"),
        ("ﾎﾟｹﾓﾝ 大会", "ポケモン-大会"),
        ("Århus Open", "aarhus-open"),
        ("Ærø Skakklub", "aeroe-skakklub"),
        ("Nørgård Cup", "noergaard-cup"),
        ("Café Zürich", "cafe-zuerich"),
        ("Friday Night Magic!", "friday-night-magic"),
        ("5月の大会", "5月の大会"),
    ],
)
def test_a_slug_keeps_the_name_as_its_language_writes_it(name, slug):
    assert slug_text(name) == slug


def test_a_japanese_event_lives_at_its_own_name_and_every_page_answers(organiser):
    event = Event(name="京都オープン", date=dt.date(2026, 12, 5))
    insert_with_new_slug(event)
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    assert event.slug.startswith("京都オープン-2026-12-05-")
    player = Player.objects.create(event=event, name="山田 太郎")
    public = reverse("public:home", args=[event.slug])
    assert public.startswith("/e/%E4%BA%AC")  # sent percent-encoded
    assert Client().get(public).status_code == 200
    phone = Client()
    link = phone.get(reverse("player:link", args=[event.slug, player.pk, player.token]))
    assert link.status_code == 302
    cookie = next(iter(link.cookies.values()))
    assert cookie["path"] == f"/e/{public.split('/')[2]}/"  # the path the browser sends, encoded
    assert "山田 太郎" in phone.get(reverse("player:me", args=[event.slug])).content.decode()
    desk = Client()
    desk.force_login(organiser)
    assert desk.get(reverse("org_event", args=[event.slug])).status_code == 200


def test_the_event_file_carries_such_a_slug_both_ways(organiser):
    event = Event(name="Århus Open", date=dt.date(2026, 12, 5))
    insert_with_new_slug(event)
    assert event.slug.startswith("aarhus-open-2026-12-05-")
    japanese = Event(name="京都オープン", date=dt.date(2026, 12, 5))
    insert_with_new_slug(japanese)
    doc = ef.loads(ef.dumps(event_to_file(japanese)))
    assert doc.settings.slug == japanese.slug
    japanese.delete()
    assert import_event(doc).slug == doc.settings.slug
    with pytest.raises(ef.EventFileError):
        ef.loads(ef.dumps(event_to_file(event)).replace(event.slug, "no spaces/or slashes"))
