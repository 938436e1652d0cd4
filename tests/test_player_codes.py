"""Player codes at a venue (issue 21, item 4): the right code always opens the page, from a shared address
too; guessing has under one chance in a million a day however many addresses it comes from; every code
typed takes a turn before it is compared, atomically; a code is one indexed row, not the roster."""

import time

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.test_concurrency import at_once
from tournament.models import CODE_ALPHABET, CODE_LENGTH, CodeBudget, Event, Player
from tournament.services import reports

pytestmark = pytest.mark.django_db


def code_url(event) -> str:
    return reverse("player:code", args=[event.slug])


def wrong_code(player: Player, k: int = 0) -> str:
    """A code of the right shape for `player`'s number that is not theirs."""
    guess = "".join(CODE_ALPHABET[(k * 7 + i) % len(CODE_ALPHABET)] for i in range(CODE_LENGTH))
    return f"{player.number}-{guess if guess != player.code else guess[::-1]}"


def test_the_odds_of_guessing_in_a_day_are_under_one_in_a_million():
    """docs/features.md ("Guessing a code") states these figures."""
    assert len(CODE_ALPHABET) == 22 and CODE_LENGTH == 8
    assert reports.most_guesses_per_day() == 1000 + (86400 + 10) // 3 == 29803
    assert reports.guess_odds_per_day() < 1e-6
    assert round(reports.guess_odds_per_day() * 1e7, 1) == 5.4


def test_a_code_is_typed_as_the_card_prints_it_and_names_its_player(event):
    a = event.players.get(name="Player A")
    for typed in (a.card_code, a.card_code.lower(), f" {a.number} {a.code[:4]} {a.code[4:]} ", f"{a.number}{a.code}"):
        assert reports.find_by_code(event, typed, "10.0.0.1") == a
    b = event.players.get(name="Player B")
    with pytest.raises(reports.ServiceError, match="code is not right"):
        reports.find_by_code(event, f"{b.number}-{a.code}", "10.0.0.1")  # A's secret is not B's
    for bad in ("", "ACEF-HJKM", "17-ACE", "x" * 30):
        with pytest.raises(reports.ServiceError, match="not a player code"):
            reports.find_by_code(event, bad, "10.0.0.1")


def test_a_mistyping_player_never_locks_out_the_phones_sharing_the_venues_address(event):
    """One phone types a hundred wrong codes (the address's whole budget) from the venue's address: the next
    player there with the right code waits one turn (three seconds), then gets in, and so does the next."""
    a, b = event.players.get(name="Player A"), event.players.get(name="Player B")
    venue = "203.0.113.7"
    for k in range(reports.ADDRESS_BUDGET):
        assert Client().post(code_url(event), {"code": wrong_code(a, k)}, REMOTE_ADDR=venue).status_code == 400
    # As if the hundred came at once (the test's requests took long enough for a turn or two to come back).
    spent = timezone.now() + reports.ADDRESS_BUDGET * reports.GUESS_INTERVAL
    CodeBudget.objects.filter(scope=f"address:{venue}").update(full_at=spent)
    for p in (b, a):  # A's turn comes while B waits: a right code gives its turn back
        started = time.monotonic()
        phone = Client()
        assert phone.post(code_url(event), {"code": p.card_code}, REMOTE_ADDR=venue).status_code == 302
        waited = time.monotonic() - started
        assert 2 < waited < 5 if p == b else waited < 1
        assert p.name in phone.get(reverse("player:me", args=[event.slug])).content.decode()


def test_guessing_from_many_addresses_slows_the_event_down_and_never_locks_it(event, monkeypatch):
    """Wrong codes from rotating addresses spend the event's budget (here made 20): past it, a guess is
    refused until its turn comes, and the right code from a fresh address waits its turn and gets in."""
    monkeypatch.setattr(reports, "EVENT_BUDGET", 20)
    a = event.players.get(name="Player A")
    for k in range(20):
        ip = f"198.51.100.{k}"
        assert Client().post(code_url(event), {"code": wrong_code(a, k)}, REMOTE_ADDR=ip).status_code == 400
    spent = timezone.now() + 20 * reports.GUESS_INTERVAL  # as if the twenty came at once
    CodeBudget.objects.filter(scope=f"event:{event.pk}").update(full_at=spent)
    patient = reports.MAX_WAIT
    monkeypatch.setattr(reports, "MAX_WAIT", patient * 0)
    refused = Client().post(code_url(event), {"code": wrong_code(a, 99)}, REMOTE_ADDR="198.51.100.200")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "try again in" in refused.content.decode()
    monkeypatch.setattr(reports, "MAX_WAIT", patient)
    started = time.monotonic()
    assert Client().post(code_url(event), {"code": a.card_code}, REMOTE_ADDR="198.51.100.201").status_code == 302
    assert 2 < time.monotonic() - started < 5


def test_an_ipv6_guesser_is_one_address_for_its_whole_64(event):
    reports.take_turn(event, "2001:db8:1:2::5")
    reports.take_turn(event, "2001:db8:1:2:ffff::9")
    assert set(CodeBudget.objects.values_list("scope", flat=True)) == {
        f"event:{event.pk}",
        "address:2001:db8:1:2::/64",
    }


def test_the_right_code_spends_no_budget(event):
    a = event.players.get(name="Player A")
    for _ in range(3):
        reports.find_by_code(event, a.card_code, "10.0.0.1")
    with pytest.raises(reports.ServiceError):
        reports.find_by_code(event, wrong_code(a), "10.0.0.1")
    budget = CodeBudget.objects.get(scope=f"event:{event.pk}")
    spent = (budget.full_at - CodeBudget.objects.get(scope="address:10.0.0.1").full_at).total_seconds()
    assert spent == 0  # the same one turn from both budgets: the wrong code's
    assert 0 < (budget.full_at - timezone.now()).total_seconds() <= reports.GUESS_INTERVAL.total_seconds()


def test_a_valid_code_reads_one_player_by_the_event_number_index_whatever_the_rosters_size(event):
    """Before: every player of the event was loaded and compared (0.9-2.7 s at 50,000 players)."""
    a = event.players.get(name="Player A")
    reports.find_by_code(event, a.card_code, "10.0.0.1")  # the budget rows exist from now on

    def queries() -> list[str]:
        with CaptureQueriesContext(connection) as ctx:
            assert reports.find_by_code(event, a.card_code, "10.0.0.1") == a
        return [q["sql"] for q in ctx.captured_queries]

    small = queries()
    Player.objects.bulk_create(Player(event=event, name=f"More {i}") for i in range(500))
    large = queries()
    assert len(small) == len(large) <= 8
    reads = [q for q in large if 'FROM "tournament_player"' in q]
    assert len(reads) == 1 and '"tournament_player"."number" =' in reads[0]
    if connection.vendor == "postgresql":  # a table this small may be read whole, which is cheaper for it
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
    plan = reports.player_by_number(event, a.number).explain()
    assert "INDEX" in plan.upper() and "SCAN tournament_player\n" not in plan  # never the whole table


@pytest.mark.django_db(transaction=True)
def test_forty_wrong_codes_at_once_from_one_address_are_compared_at_most_the_budget(event, monkeypatch):
    """Taking a turn and counting it is one locked update: 40 simultaneous wrong codes against a budget of
    10 (and no waiting) compare exactly 10; the others are refused before any code is compared."""
    monkeypatch.setattr(reports, "ADDRESS_BUDGET", 10)
    monkeypatch.setattr(reports, "GUESS_INTERVAL", reports.GUESS_INTERVAL * 100)  # no refill during the test
    monkeypatch.setattr(reports, "MAX_WAIT", reports.MAX_WAIT * 0)
    a = event.players.get(name="Player A")
    url = code_url(event)
    responses = at_once(
        *(lambda k=k: Client().post(url, {"code": wrong_code(a, k)}, REMOTE_ADDR="192.0.2.40") for k in range(40))
    )
    statuses = sorted(getattr(r, "status_code", repr(r)) for r in responses)
    assert statuses == [400] * 10 + [429] * 30


def test_hidden_and_organiser_only_events_still_refuse_codes(event):
    Event.objects.filter(pk=event.pk).update(public=False)
    a = event.players.get(name="Player A")
    assert Client().post(code_url(event), {"code": a.card_code}).status_code == 404
