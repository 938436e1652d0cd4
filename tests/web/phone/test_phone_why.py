"""The player's phone says why they are paired as they are (their score group, float, bye, colour, each with its
cause) under their table, shows their whole group behind "more", in their language, and answers "why am I not
playing X?" about their own round: cached, budgeted, and honest after a change by hand."""

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tournament.models import Player, Round, RoundExplanation
from tournament.pages.why import said, why_not_said
from tournament.services import explanations
from tournament.services.results import Outcome, record_result
from tournament.services.roster import request_bye
from tournament.services.rounds import pair_next_round, publish_round, swap_players

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def played_rounds(event, organiser, rounds: int = 2) -> Round:
    """`rounds` rounds paired by the engine and published; all but the last played (player A of each table wins)."""
    for number in range(1, rounds + 1):
        rnd = pair_next_round(event, organiser)
        publish_round(rnd, organiser)
        if number < rounds:
            for m in rnd.matches.filter(player_b__isnull=False):
                record_result(m, Outcome("played", (1, 0, 0) if event.colours else (2, 0, 0)), organiser)
    rnd.refresh_from_db()
    return rnd


def phone(event, player: Player, language: str = "en") -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert c.get(reverse("player:link", args=[event.slug, player.pk, player.token])).status_code == 302
    return c


def reasons(event, rnd: Round, player: Player, language: str) -> list[str]:
    stored = RoundExplanation.objects.get(round=rnd).players[str(player.pk)]["reasons"]
    with translation.override(language):
        return said(event, stored)


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_the_phone_shows_the_player_s_reasons_and_group_in_their_language(chess, organiser, language):
    rnd = played_rounds(chess, organiser)
    player = rnd.matches.filter(player_b__isnull=False).first().player_a
    page = phone(chess, player, language).get(reverse("player:me", args=[chess.slug])).content.decode()
    lines = reasons(chess, rnd, player, language)
    assert lines and all(escape(line) in page for line in lines)
    english = reasons(chess, rnd, player, "en")
    if language != "en":
        assert all(escape(line) not in page for line in english if line not in lines)
        assert "Score group" not in page
    assert 'class="me-why-more"' in page  # the whole group behind "more"
    group = RoundExplanation.objects.get(round=rnd).groups[
        RoundExplanation.objects.get(round=rnd).players[str(player.pk)]["group"]
    ]
    names = dict(Player.objects.filter(pk__in=group["residents"]).values_list("pk", "name"))
    assert all(escape(name) in page for name in names.values())


def test_the_phone_of_a_card_event_shows_the_optimal_engine_s_reasons(event, organiser):
    rnd = played_rounds(event, organiser)
    player = rnd.matches.first().player_a
    page = phone(event, player).get(reverse("player:me", args=[event.slug])).content.decode()
    assert all(escape(line) in page for line in reasons(event, rnd, player, "en"))


def test_a_swapped_player_s_phone_says_the_organiser_paired_them_by_hand(
    event, organiser, django_capture_on_commit_callbacks
):
    """The phone's reasons are cached while results come in; the swap, on the round's trail, is read at once."""
    rnd = played_rounds(event, organiser)
    a, b = (m.player_a for m in rnd.matches.filter(player_b__isnull=False).order_by("table")[:2])
    me = phone(event, a)
    assert "Score group" in me.get(reverse("player:me", args=[event.slug])).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        swap_players(rnd, a, b, organiser)
    page = me.get(reverse("player:me", args=[event.slug])).content.decode()
    assert "Paired by the organiser by hand" in page
    assert "Score group" not in page  # the engine's reasons for the pair it made are gone
    assert 'class="me-why-more"' not in page


def test_a_round_without_a_stored_explanation_shows_nothing(event, organiser):
    from tests.web.public.test_public import ROUND_1, pair

    pair(event, 1, ROUND_1, state=Round.State.PAIRED)
    player = Player.objects.get(event=event, name="Player A")
    page = phone(event, player).get(reverse("player:me", args=[event.slug])).content.decode()
    assert 'class="me-why' not in page and "Table" in page


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_why_not_answers_about_the_player_s_own_round(chess, organiser, language):
    rnd = played_rounds(chess, organiser)
    m1, m2 = rnd.matches.filter(player_b__isnull=False).order_by("table")[:2]
    me, other = m1.player_a, m2.player_a
    c = phone(chess, me, language)
    response = c.get(reverse("player:why_not", args=[chess.slug]), {"with": other.pk})
    assert response.status_code == 200
    answer = explanations.answer(rnd, me, other)
    with translation.override(language):
        expected = why_not_said(answer, rnd, me, other)
    assert escape(expected) in response.content.decode()
    if language != "en":
        assert escape(answer["text"]) not in response.content.decode()
    # Asking about their own opponent says they are paired.
    paired = c.get(reverse("player:why_not", args=[chess.slug]), {"with": m1.player_b_id})
    assert explanations.answer(rnd, me, m1.player_b)["code"] == "paired"
    with translation.override(language):
        said_paired = why_not_said(explanations.answer(rnd, me, m1.player_b), rnd, me, m1.player_b)
    assert escape(said_paired) in paired.content.decode()
    # The answers name the players as the page does, never by their keys (the engine's ids).
    for text, who in ((expected, other), (said_paired, m1.player_b)):
        assert me.name in text and who.name in text, text
        assert not re.search(rf"\b(?:{re.escape(me.key)}|{re.escape(who.key)})\b", text), text


def test_why_not_finds_a_player_by_name_and_refuses_strangers(event, organiser):
    rnd = played_rounds(event, organiser)
    me = rnd.matches.first().player_a
    c = phone(event, me)
    found = c.get(reverse("player:why_not", args=[event.slug]), {"name": "Player"}).content.decode()
    others = Player.objects.filter(seats__round=rnd).exclude(pk=me.pk)
    assert all(f"?with={p.pk}" in found for p in others) and f"?with={me.pk}" not in found
    # A phone that is nobody's is sent to the code page; nothing is computed.
    stranger = Client().get(reverse("player:why_not", args=[event.slug]), {"with": others[0].pk})
    assert stranger.status_code == 302 and stranger["Location"] == reverse("player:me", args=[event.slug])


def test_why_not_is_cached_and_a_phone_s_uncached_questions_are_budgeted(event, organiser, monkeypatch):
    rnd = played_rounds(event, organiser)
    me = rnd.matches.first().player_a
    others = list(Player.objects.filter(seats__round=rnd).exclude(pk=me.pk).order_by("pk"))
    monkeypatch.setattr(explanations, "PLAYER_BUDGET", ("why-not-player", 2, timedelta(hours=1)))
    c = phone(event, me)
    ask = reverse("player:why_not", args=[event.slug])
    assert c.get(ask, {"with": others[0].pk}).status_code == 200
    assert c.get(ask, {"with": others[1].pk}).status_code == 200
    refused = c.get(ask, {"with": others[2].pk})
    assert refused.status_code == 429 and "Too many questions" in refused.content.decode()
    # An answer already computed costs no turn: asked again, it is there.
    assert c.get(ask, {"with": others[0].pk}).status_code == 200


def test_a_swap_makes_a_new_answer(event, organiser):
    rnd = played_rounds(event, organiser)
    (m1, m2) = rnd.matches.filter(player_b__isnull=False).order_by("table")[:2]
    a, b = m1.player_a, m2.player_a
    assert explanations.answer(rnd, a, b)["code"] != "paired"
    swap_players(rnd, m1.player_b, b, organiser)  # b now plays a
    assert explanations.answer(rnd, a, b)["code"] == "paired"


ASKED_SENTENCE = {
    "en": "Bye: asked for a half-point bye in this round.",
    "ja": "不戦勝：このラウンドの0.5点の休みを申請。",
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_player_who_asked_for_a_half_point_bye_reads_that_as_their_reason(chess, organiser, language):
    played_rounds(chess, organiser, rounds=1)
    first = Round.objects.get(event=chess, number=1)
    for m in first.matches.filter(player_b__isnull=False):
        record_result(m, Outcome("played", (1, 0, 0)), organiser)
    asker = chess.players.get(name="Player C")
    request_bye(asker, 2, "half_bye", organiser)
    rnd = pair_next_round(chess, organiser)
    publish_round(rnd, organiser)
    assert rnd.matches.get(player_a=asker).result == "half_bye"
    (stored,) = RoundExplanation.objects.get(round=rnd).players[str(asker.pk)]["reasons"]
    assert stored["code"] == "bye" and stored["params"] == {
        "because": {"code": "why_asked_half_bye", "params": {}, "text": "asked for a half-point bye in this round"},
        "cause": "requested",
        "kind": "half_bye",
    }
    page = phone(chess, asker, language).get(reverse("player:me", args=[chess.slug])).content.decode()
    assert reasons(chess, rnd, asker, language) == [ASKED_SENTENCE[language]]
    assert escape(ASKED_SENTENCE[language]) in page
