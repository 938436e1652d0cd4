"""Player codes at a venue: the right code always opens the page, from a shared address too and whatever
other addresses guess; a refused guess is answered at once; guessing has under one chance in a million a day
for each address it comes from; every code typed takes a turn before it is compared, atomically; a code is one
indexed row, not the roster. (A hall of phones behind one address with a guesser among them:
tests/web/security/test_code_guessing.py.)"""

import time

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.web.organiser.test_concurrency import at_once
from tournament.models import CODE_ALPHABET, CODE_LENGTH, CodeBudget, Event, Player
from tournament.services import codes, reports

pytestmark = pytest.mark.django_db


def code_url(event) -> str:
    return reverse("player:code", args=[event.slug])


def wrong_code(player: Player, k: int = 0) -> str:
    """A code of the right shape for `player`'s number that is not theirs."""
    guess = "".join(CODE_ALPHABET[(k * 7 + i) % len(CODE_ALPHABET)] for i in range(CODE_LENGTH))
    return f"{player.number}-{guess if guess != player.code else guess[::-1]}"


def test_the_odds_of_guessing_in_a_day_are_under_one_in_a_million_for_each_address():
    """docs/features.md ("Guessing a code") states these figures."""
    assert len(CODE_ALPHABET) == 22 and CODE_LENGTH == 8
    # The address's turns, and the first tries of every device key it can be given in a day.
    assert codes.most_guesses_per_day() == 100 + 86400 // 5 + 3 * (400 + 86400 // 30) == 27220
    assert codes.most_guesses_per_day() <= 100 + 86400 // 3  # no more than one address had before devices
    assert codes.guess_odds_per_day() < 1e-6
    assert round(codes.guess_odds_per_day() * 1e7, 1) == 5.0


def test_a_code_is_typed_as_the_card_prints_it_and_names_its_player(event):
    a = event.players.get(name="Player A")
    wide = a.card_code.translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)})  # what a Japanese keyboard gives
    for typed in (
        a.card_code,
        a.card_code.lower(),
        f" {a.number} {a.code[:4]} {a.code[4:]} ",
        f"{a.number}{a.code}",
        wide,
        wide.replace("－", "ー"),
        f"{a.number}　{a.code}",  # an ideographic space
    ):
        assert codes.find_by_code(event, typed, "10.0.0.1") == a, typed
    b = event.players.get(name="Player B")
    with pytest.raises(reports.ServiceError, match="code is not right"):
        codes.find_by_code(event, f"{b.number}-{a.code}", "10.0.0.1")  # A's secret is not B's
    for bad in ("", "ACEF-HJKM", "17-ACE", "x" * 30):
        with pytest.raises(reports.ServiceError, match="not a player code"):
            codes.find_by_code(event, bad, "10.0.0.1")


def spend(scope: str, turns: int, interval) -> None:
    """As if `turns` wrong codes had just come at once (the test's own requests take time, and turns refill)."""
    CodeBudget.objects.filter(scope=scope).update(full_at=timezone.now() + turns * interval)


def device_of(phone: Client) -> str:
    return codes.device_of(phone.cookies[codes.DEVICE_COOKIE].value).id


def keyed(event, address: str) -> Client:
    """A phone that opened the code page at `address`, and was given its device key there."""
    phone = Client()
    assert phone.get(code_url(event), REMOTE_ADDR=address).status_code == 200
    assert codes.DEVICE_COOKIE in phone.cookies
    return phone


def test_a_mistyping_player_never_locks_out_the_phones_sharing_the_venues_address(event):
    """One phone types ten wrong codes for A (its device's whole budget) from the venue's address: its next code is
    refused at once, and every other phone there, A's own included, gets in at once."""
    a, b = event.players.get(name="Player A"), event.players.get(name="Player B")
    venue = "203.0.113.7"
    guesser = keyed(event, venue)
    for k in range(codes.DEVICE_BUDGET):
        assert guesser.post(code_url(event), {"code": wrong_code(a, k)}, REMOTE_ADDR=venue).status_code == 400
    spend(f"device:{device_of(guesser)}", codes.DEVICE_BUDGET, codes.DEVICE_INTERVAL)
    started = time.monotonic()
    refused = guesser.post(code_url(event), {"code": wrong_code(a, 99)}, REMOTE_ADDR=venue)
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    assert time.monotonic() - started < 1  # answered at once: no worker is held to slow a guesser
    for p in (b, a):  # A's number is locked for the guessing device only
        phone = keyed(event, venue)
        assert phone.post(code_url(event), {"code": p.card_code}, REMOTE_ADDR=venue).status_code == 302
        assert p.name in phone.get(reverse("player:me", args=[event.slug])).content.decode()


def test_the_refused_code_page_counts_down_to_the_next_turn(event):
    a = event.players.get(name="Player A")
    phone = keyed(event, "198.51.100.9")
    phone.post(code_url(event), {"code": wrong_code(a)}, REMOTE_ADDR="198.51.100.9")
    spend(f"device:{device_of(phone)}", codes.DEVICE_BUDGET, codes.DEVICE_INTERVAL)
    refused = phone.post(code_url(event), {"code": a.card_code}, REMOTE_ADDR="198.51.100.9")
    assert refused.status_code == 429
    seconds = int(refused["Retry-After"])
    assert 1 <= seconds <= 60
    body = refused.content.decode()
    assert f'data-retry-after="{seconds}"' in body and "try again in" in body


def test_guessing_from_many_addresses_never_refuses_a_players_right_code(event):
    """Thirty addresses spend their turns on player A's number and on the others': A's right code, and B's, get
    in at once from a phone of their own elsewhere, and at a guessing address too; so do the guessers' pages."""
    a, b = event.players.get(name="Player A"), event.players.get(name="Player B")
    for k in range(30):
        ip = f"198.51.100.{k}"
        assert Client().post(code_url(event), {"code": wrong_code(a, k)}, REMOTE_ADDR=ip).status_code == 400
        spend(f"address:{ip}", codes.ADDRESS_BUDGET, codes.ADDRESS_INTERVAL)
        assert Client().post(code_url(event), {"code": wrong_code(b, k)}, REMOTE_ADDR=ip).status_code == 429
    for p, ip in ((a, "192.0.2.1"), (b, "2001:db8:7::1"), (a, "198.51.100.3")):
        started = time.monotonic()
        assert keyed(event, ip).post(code_url(event), {"code": p.card_code}, REMOTE_ADDR=ip).status_code == 302
        assert time.monotonic() - started < 1
    assert Client().get(reverse("public:standings", args=[event.slug]), REMOTE_ADDR="198.51.100.1").status_code == 200


def test_an_ipv6_guesser_is_one_address_for_its_whole_64(event):
    codes.take_turn(None, "2001:db8:1:2::5")
    codes.take_turn(None, "2001:db8:1:2:ffff::9")
    codes.give_device("2001:db8:1:2::5")
    codes.give_device("2001:db8:1:2:ffff::9")
    assert set(CodeBudget.objects.values_list("scope", flat=True)) == {
        "address:2001:db8:1:2::/64",
        "starts:2001:db8:1:2::/64",
    }


def test_the_right_code_spends_no_budget(event):
    a = event.players.get(name="Player A")
    device = codes.device_of(codes.give_device("10.0.0.1"))
    for _ in range(3):
        codes.find_by_code(event, a.card_code, "10.0.0.1", device=device)
    with pytest.raises(reports.ServiceError):
        codes.find_by_code(event, wrong_code(a), "10.0.0.1", device=device)
    own = CodeBudget.objects.get(scope=f"device:{device.id}")
    address = CodeBudget.objects.get(scope="address:10.0.0.1")
    # One turn spent from each budget: the wrong code's.
    assert 0 < (own.full_at - timezone.now()).total_seconds() <= codes.DEVICE_INTERVAL.total_seconds()
    assert 0 < (address.full_at - timezone.now()).total_seconds() <= codes.ADDRESS_INTERVAL.total_seconds()


def test_a_valid_code_reads_one_player_by_the_event_number_index_whatever_the_rosters_size(event):
    """Before: every player of the event was loaded and compared (0.9-2.7 s at 50,000 players)."""
    a = event.players.get(name="Player A")
    codes.find_by_code(event, a.card_code, "10.0.0.1")  # the budget rows exist from now on

    def queries() -> list[str]:
        with CaptureQueriesContext(connection) as ctx:
            assert codes.find_by_code(event, a.card_code, "10.0.0.1") == a
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
    plan = codes.player_by_number(event, a.number).explain()
    assert "INDEX" in plan.upper() and "SCAN tournament_player\n" not in plan  # never the whole table


@pytest.mark.django_db(transaction=True)
def test_forty_wrong_codes_at_once_from_one_address_are_compared_at_most_the_budget(event, monkeypatch):
    """Taking a turn and counting it is one locked update: 40 simultaneous wrong codes (from phones without a
    device key) against an address's budget of 10 (and no waiting) compare exactly 10; the others are refused
    before any code is compared."""
    monkeypatch.setattr(codes, "ADDRESS_BUDGET", 10)
    monkeypatch.setattr(codes, "ADDRESS_INTERVAL", codes.ADDRESS_INTERVAL * 100)  # no refill during the test
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
