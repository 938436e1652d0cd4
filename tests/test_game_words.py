"""Each game's own words: a double loss worded in every language wherever a result is shown, and backgammon
without a draw (it has none)."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.test_public import ROUND_1, pair
from tournament import services
from tournament.models import Event, Match, Round

pytestmark = pytest.mark.django_db

DOUBLE_LOSS = {"en": "double loss", "da": "dobbelt nederlag", "ja": "両者敗北"}


def shown(body: str) -> str:
    """The page without what is typed as it is: the keyboard's shorthands (<kbd>double loss</kbd>)."""
    return re.sub(r"<kbd>[^<]*</kbd>", "", body)


def staff(organiser, language: str) -> Client:
    client = Client()
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.mark.parametrize("language", ["da", "ja"])
def test_a_double_loss_is_worded_in_the_pages_language(event, organiser, language):
    """`Match.result_label` returned the English "double loss" on the round page, the match page, the
    keyboard's confirmation and the printed pairings, whatever the page's language."""
    rnd = pair(event, 1, ROUND_1)
    match = rnd.matches.get(table=1)
    services.record_result(match, services.parse_outcome("dl", event.best_of), organiser)
    org = staff(organiser, language)
    word = DOUBLE_LOSS[language]
    pages = {
        "round": reverse("org_round", args=[event.slug, 1]),
        "match": reverse("org_match", args=[event.slug, 1, match.pk]),
        "by table": reverse("org_print_by_table", args=[event.slug, 1]),
    }
    for name, url in pages.items():
        body = shown(org.get(url).content.decode())
        assert word in body and "double loss" not in body, name
    # The keyboard: the same result again keeps it, in words; another asks to replace it, naming it.
    keep = org.post(
        reverse("org_table_result", args=[event.slug, 1]), {"table": 1, "result": "dl", "keep": "1"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert word in shown(keep) and "double loss" not in shown(keep)
    ask = org.post(
        reverse("org_table_result", args=[event.slug, 1]), {"table": 1, "result": "2-0"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert word in shown(ask) and "double loss" not in shown(ask)
