"""A player's phone in the last round says what each result of their own game gives: the FIDE rating change
of the game and the prizes (docs/prizes.md#before-the-last-results), in their language; stored with the
round's outlook and worked out again when a result is entered or colours are flipped, so the page (and its
ETag) follows."""

from fractions import Fraction

import pytest
from django.core.cache import cache

from swiss.prizemodel import Prize, PrizeRules
from tests.conftest import new_chess_event
from tests.web.phone.test_player_page import me, phone
from tests.web.public.test_public import ROUND_1, ROUND_2, pair
from tournament.models import Match, Round, RoundOutlook
from tournament.services import outlooks
from tournament.services.prizes import save_prize_list
from tournament.services.results import Outcome, record_result
from tournament.services.rounds import flip_colours

pytestmark = pytest.mark.django_db

CHESS_WINS = {1: (1, 0, 0), 2: (1, 0, 0), 3: (1, 0, 0), 4: (1, 0, 0)}
PRIZES = (Prize("1st", Fraction(300)), Prize("2nd", Fraction(200)), Prize("3rd", Fraction(100)))

# Player A (1500) has White against Player C (1480): expected 0.53 (a difference of 20), K 20. After round 1
# A, C, E and G have 1 point; A-C and E-G decide the prizes with B-D and F-H.
SAID = {
    "en": {
        "heading": "What each result gives",
        "win": "If you win",
        "draw": "If you draw",
        "rating": "rating +9.4",
        # A win: 1st alone when E-G is drawn, else 1st and 2nd shared with its winner.
        "win_prize": "depends on other results: €\u00a0250.00 to €\u00a0300.00",
        # A draw: € 150.00 whatever E-G does, as 2nd + 3rd with C or 1st to 3rd with C, E and G.
        "draw_prize": "depends on other results: €\u00a0150.00 in every case",
        "loss_prize": "depends on other results: €\u00a00.00 to €\u00a050.00",
        "certain": "a share of 1st + 2nd (places 1–2, 2 players): €\u00a0250.00 each",
    },
    "ja": {
        "heading": "各結果で得られるもの",
        "win": "勝った場合",
        "draw": "引き分けた場合",
        "rating": "レーティング +9.4",
        "win_prize": "ほかの結果次第：€\u00a0250.00〜€\u00a0300.00",
        "draw_prize": "ほかの結果次第：いずれの場合も€\u00a0150.00",
        "loss_prize": "ほかの結果次第：€\u00a00.00〜€\u00a050.00",
        "certain": "1st + 2ndを分け合う（1〜2位、2人）：各€\u00a0250.00",
    },
    "da": {
        "heading": "Hvad hvert resultat giver",
        "win": "Hvis du vinder",
        "draw": "Hvis du spiller remis",
        "rating": "rating +9.4",
        "win_prize": "afhænger af andre resultater: €\u00a0250.00 til €\u00a0300.00",
        "draw_prize": "afhænger af andre resultater: €\u00a0150.00 under alle omstændigheder",
        "loss_prize": "afhænger af andre resultater: €\u00a00.00 til €\u00a050.00",
        "certain": "en andel af 1st + 2nd (pladserne 1–2, 2 spillere): €\u00a0250.00 hver",
    },
}


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@pytest.fixture
def last_round(organiser):
    """A chess event's round 2 of 2 being played, with a prize list: every White won round 1."""
    event = new_chess_event(
        organiser, {f"Player {c}": 1500 - i * 10 for i, c in enumerate("ABCDEFGH")}, planned_rounds=2
    )
    save_prize_list(event, PRIZES, PrizeRules(currency="€"))
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=CHESS_WINS)
    rnd = pair(event, 2, ROUND_2, state=Round.State.PAIRED)
    event.refresh_from_db()
    return rnd


def _table(rnd, number) -> Match:
    return Match.objects.select_related("round__event").get(round=rnd, table=number)


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_each_result_in_each_language(last_round, language, django_capture_on_commit_callbacks):
    outlooks.refresh(last_round)
    html = me(phone(last_round.event, "Player A", language), last_round.event).content.decode()
    said = SAID[language]
    assert 'id="gives"' in html
    for key in ("heading", "win", "draw", "rating", "win_prize", "draw_prize", "loss_prize"):
        assert said[key] in html, key
    with django_capture_on_commit_callbacks(execute=True):
        record_result(_table(last_round, 2), Outcome(Match.Result.PLAYED, (1, 0, 0)), None)  # E beats G
    assert said["certain"] in me(phone(last_round.event, "Player A", language), last_round.event).content.decode()


def test_the_stored_claims_and_rating_changes(last_round):
    stored = outlooks.refresh(last_round)
    a = last_round.event.players.get(name="Player A")
    gives = stored.players[str(a.pk)]["gives"]
    assert {o: gives[o]["rating"] for o in ("win", "draw", "loss")} == {"win": "+9.4", "draw": "-0.6", "loss": "-10.6"}
    assert gives["win"]["prize"] == {"code": "depends", "money": ["250", "300"]}
    assert gives["currency"] == "€"
    # No cut and no top cut: nothing else is stored for the player.
    assert set(stored.players[str(a.pk)]) == {"gives"} and stored.line == {}


def test_a_result_entered_elsewhere_refreshes_the_phone(last_round, django_capture_on_commit_callbacks):
    outlooks.refresh(last_round)
    c = phone(last_round.event, "Player A")
    first = me(c, last_round.event)
    with django_capture_on_commit_callbacks(execute=True):
        record_result(_table(last_round, 2), Outcome(Match.Result.PLAYED, (1, 0, 0)), None)  # E beats G
    again = me(c, last_round.event, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    html = again.content.decode()
    # With E on 2 points a win shares 1st and 2nd with E, whatever B-D and F-H do.
    assert SAID["en"]["certain"] in html and SAID["en"]["win_prize"] not in html


def test_a_players_own_result_ends_their_lines(last_round, django_capture_on_commit_callbacks):
    outlooks.refresh(last_round)
    with django_capture_on_commit_callbacks(execute=True):
        record_result(_table(last_round, 1), Outcome(Match.Result.PLAYED, (0, 0, 1)), None)
    html = me(phone(last_round.event, "Player A"), last_round.event).content.decode()
    assert 'id="gives"' not in html
    a = last_round.event.players.get(name="Player A")
    assert "gives" not in RoundOutlook.objects.get(round=last_round).players.get(str(a.pk), {})


def test_a_colour_flip_refreshes_the_stored_outlook(last_round, organiser, django_capture_on_commit_callbacks):
    """Colour tie-breaks (BPG, BWG) read who has Black: a flip is worked out again, as a result is."""
    outlooks.refresh(last_round)
    before = Round.objects.get(pk=last_round.pk).outlook_revision
    c = phone(last_round.event, "Player C")
    first = me(c, last_round.event)
    with django_capture_on_commit_callbacks(execute=True):
        flip_colours(last_round, _table(last_round, 1).pk, organiser)
    assert Round.objects.get(pk=last_round.pk).outlook_revision == before  # four tables open: the worker's
    assert outlooks.refresh_task.call(last_round.pk) == "stored"
    assert Round.objects.get(pk=last_round.pk).outlook_revision == before + 1
    assert me(c, last_round.event, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_the_cut_outlook_is_refreshed_by_a_result_too(last_round, django_capture_on_commit_callbacks):
    """The "what do I need" claims of a top cut are worked out again after every result."""
    event = last_round.event
    type(event).objects.filter(pk=event.pk).update(top_cut=2)
    event.refresh_from_db()
    a = event.players.get(name="Player A")
    before = outlooks.refresh(last_round).players[str(a.pk)]
    # A draw leaves A level with C on 1½: Buchholz decides, and it reads table 3 (B-D).
    assert (before["win"], before["draw"], before["tables"]) == ("in", "depends", {"draw": [3]})
    with django_capture_on_commit_callbacks(execute=True):
        for table in (2, 3, 4):
            record_result(_table(last_round, table), Outcome(Match.Result.PLAYED, (1, 0, 0)), None)
    after = RoundOutlook.objects.get(round=last_round).players[str(a.pk)]
    assert after["draw"] in ("in", "out") and "draw" not in after["tables"]


def test_not_the_last_round_no_prizes_but_the_rating(last_round):
    type(last_round.event).objects.filter(pk=last_round.event.pk).update(planned_rounds=3)
    last_round.event.refresh_from_db()
    stored = outlooks.refresh(last_round)
    a = last_round.event.players.get(name="Player A")
    assert stored.players[str(a.pk)]["gives"] == {
        "win": {"rating": "+9.4"},
        "draw": {"rating": "-0.6"},
        "loss": {"rating": "-10.6"},
    }


def test_no_prize_list_and_no_ratings_nothing_stored(event):
    """A card game's event without a prize list: nothing is stored, the phone shows no box."""
    pair(event, 1, ROUND_1, state=Round.State.PAIRED)
    rnd = Round.objects.get(event=event, number=1)
    assert outlooks.refresh(rnd) is None
    assert 'id="gives"' not in me(phone(event, "Player A"), event).content.decode()


def test_a_card_games_match_results_and_prizes(event):
    """A card game's last round: the match results (2-0, 2-1 as a win) give prizes, and no rating."""
    type(event).objects.filter(pk=event.pk).update(planned_rounds=1)
    event.refresh_from_db()
    save_prize_list(event, PRIZES, PrizeRules(currency="EUR"))
    rnd = pair(event, 1, ROUND_1, state=Round.State.PAIRED)
    stored = outlooks.refresh(rnd)
    a = event.players.get(name="Player A")
    gives = stored.players[str(a.pk)]["gives"]
    assert set(gives) == {"win", "draw", "loss", "currency"} and "rating" not in gives["win"]
    # A win: 1st alone when every other match is drawn, down to 1st to 3rd shared by four winners.
    assert gives["win"]["prize"] == {"code": "depends", "money": ["150", "300"]}
    html = me(phone(event, "Player A"), event).content.decode()
    assert "depends on other results: EUR\u00a0150.00 to EUR\u00a0300.00" in html


def test_saving_the_prize_list_refreshes(last_round, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        save_prize_list(last_round.event, PRIZES[:1], PrizeRules(currency="€"))
    assert outlooks.refresh_task.call(last_round.pk) == "stored"  # four tables open: the worker's
    a = last_round.event.players.get(name="Player A")
    gives = RoundOutlook.objects.get(round=last_round).players[str(a.pk)]["gives"]
    assert gives["loss"]["prize"] == {"code": "none"}


def test_only_a_round_with_few_tables_open_is_worked_out_in_the_request(
    last_round, organiser, django_capture_on_commit_callbacks
):
    """Eight players: with four tables open (81 combinations) the worker refreshes, with three (27) the request
    does, the desk waiting some 50 ms at most."""
    from django_tasks_db.models import DBTaskResult

    assert not outlooks.in_request(last_round)
    with django_capture_on_commit_callbacks(execute=True):
        record_result(_table(last_round, 4), Outcome(Match.Result.PLAYED, (1, 0, 0)), organiser)
    assert outlooks.in_request(last_round)
    assert DBTaskResult.objects.count() == 0
    a = last_round.event.players.get(name="Player A")  # at table 1, still open
    gives = RoundOutlook.objects.get(round=last_round).players[str(a.pk)]["gives"]
    assert {"win", "draw", "loss"} <= set(gives) and "prize" in gives["win"]


def test_a_run_of_results_in_a_large_round_asks_the_worker_once(organiser, django_capture_on_commit_callbacks):
    from django_tasks_db.models import DBTaskResult

    from tournament.services.rounds import pair_next_round, publish_round

    ratings = {f"P{k:02d}": 1400 + k for k in range(20)}
    event = new_chess_event(organiser, ratings, slug="big", planned_rounds=1)
    rnd = pair_next_round(event, organiser)
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(rnd, organiser)
    assert DBTaskResult.objects.count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        for m in Match.objects.select_related("round__event").filter(round=rnd, player_b__isnull=False)[:3]:
            record_result(m, Outcome(Match.Result.PLAYED, (1, 0, 0)), organiser)
    assert DBTaskResult.objects.count() == 1  # still waiting for the worker: asked once
    assert outlooks.refresh_task.call(rnd.pk) == "stored"
    with django_capture_on_commit_callbacks(execute=True):
        m = Match.objects.select_related("round__event").filter(round=rnd, player_b__isnull=False, games_a=None).first()
        record_result(m, Outcome(Match.Result.PLAYED, (0, 1, 0)), organiser)
    assert DBTaskResult.objects.count() == 2  # the worker started: the next result asks again
    stored = RoundOutlook.objects.get(round=rnd)
    assert all(set(d["gives"]) <= {"win", "draw", "loss"} for d in stored.players.values())
