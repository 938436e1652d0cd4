"""`make run`'s demo: the organiser and an event set up as the app itself recommends for its players."""

import pytest
from django.core.management import call_command

from tournament.models import Event
from tournament.services.rounds import recommended_rounds

pytestmark = pytest.mark.django_db


def test_the_demo_event_is_planned_as_its_own_pages_recommend(capsys, monkeypatch):
    monkeypatch.setenv("PORT", "8123")
    call_command("demo")
    event = Event.objects.get(slug="demo")
    advice = recommended_rounds(event)
    assert (event.planned_rounds, event.top_cut) == (advice.rounds, advice.top_cut) == (5, 4)
    out = capsys.readouterr().out
    assert "organiser / swiss-demo" in out and "http://127.0.0.1:8123/e/demo/" in out
    call_command("demo")  # a second run changes nothing
    assert Event.objects.filter(slug="demo").count() == 1
