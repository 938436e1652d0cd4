"""A hall's phones share the venue's one public address, and a guesser is among them. Whatever the guesser does
with its own turns, each player's right code typed on their own phone opens their page; the guesser has no more
codes compared than its device's budget and the address's (services/codes.py, docs/features.md "Guessing a
code"), and cannot lock anybody's number. Through the Django client on the test database with Redis as the cache,
then on the wire: gunicorn, PostgreSQL, Redis, 300 phones and a guesser at full speed."""

import json
import threading
import time
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.deploy.test_cache_outage import shared_cache  # noqa: F401 (a fixture: Redis as the cache)
from tests.web.deploy.test_deploy import fresh_database_url  # noqa: F401 (a fixture)
from tests.web.security.stack import Session, run, served, shell
from tournament.models import CODE_ALPHABET, CODE_LENGTH, Player
from tournament.services import codes

pytestmark = pytest.mark.django_db

HALL = 300
VENUE = "203.0.113.50"  # every phone's, and the guesser's


def wrong(number: int, k: int, right: str) -> str:
    guess = "".join(CODE_ALPHABET[(k * 7 + i * 3) % len(CODE_ALPHABET)] for i in range(CODE_LENGTH))
    return f"{number}-{guess if guess != right else guess[::-1]}"


@pytest.fixture
def hall(event):
    Player.objects.bulk_create(Player(event=event, name=f"Hall {i:03d}") for i in range(HALL))
    return event


class Guesser:
    """Wrong codes at full speed, aimed at the numbers of the players about to type theirs (to lock them out)."""

    def __init__(self, event, keeps_its_device: bool):
        self.event, self.keeps = event, keeps_its_device
        self.phone, self.k, self.answers = Client(), 0, Counter()
        if keeps_its_device:  # opens the code page once, as a phone does, and keeps the key it is given
            self.phone.get(reverse("player:code", args=[event.slug]), REMOTE_ADDR=VENUE)

    def guess(self, target: Player, times: int) -> None:
        for _ in range(times):
            self.k += 1
            phone = self.phone if self.keeps else Client()  # a script that keeps no cookie
            r = phone.post(
                reverse("player:code", args=[self.event.slug]),
                {"code": wrong(target.number, self.k, target.code)},
                REMOTE_ADDR=VENUE,
            )
            self.answers[r.status_code] += 1


def test_three_hundred_phones_get_in_while_a_guesser_on_the_same_address_spends_its_turns(hall, shared_cache):  # noqa: F811
    url = reverse("player:code", args=[hall.slug])
    players = list(hall.players.filter(name__startswith="Hall").order_by("number"))
    keeping, scripted = Guesser(hall, keeps_its_device=True), Guesser(hall, keeps_its_device=False)
    started, refused = time.monotonic(), []
    for i, p in enumerate(players):
        # Before each player types: the guessers fire at this player's number and the next one's.
        for target in players[i : i + 2]:
            keeping.guess(target, 2)
            scripted.guess(target, 2)
        phone = Client()
        assert phone.get(url, REMOTE_ADDR=VENUE).status_code == 200  # the code page: the phone's key
        if i % 10 == 0:  # a player who mistypes once first
            assert phone.post(url, {"code": wrong(p.number, 1000 + i, p.code)}, REMOTE_ADDR=VENUE).status_code == 400
        r = phone.post(url, {"code": p.card_code}, REMOTE_ADDR=VENUE)
        if r.status_code != 302:
            refused.append((p.number, r.status_code))
    seconds = time.monotonic() - started
    assert refused == []
    # What the guessers had compared: no more than their turns (and what refilled while the test ran).
    refill = int(seconds / codes.DEVICE_INTERVAL.total_seconds()) + 1
    assert keeping.answers[400] <= codes.DEVICE_BUDGET + refill, keeping.answers
    refill = int(seconds / codes.ADDRESS_INTERVAL.total_seconds()) + 1
    assert scripted.answers[400] <= codes.ADDRESS_BUDGET + refill, scripted.answers
    assert keeping.answers[429] > 0 and scripted.answers[429] > 0  # they did run out
    print(f"\n{HALL} phones in {seconds:.1f} s; guessers compared {keeping.answers} and {scripted.answers}")


def test_a_guesser_that_takes_a_new_key_for_every_guess_has_the_keys_first_tries_and_no_more(
    event,
    monkeypatch,
    shared_cache,  # noqa: F811
):
    """The one way past a device's budget is a new device: the address's keys are a budget of their own, so such a
    guesser has at most the address's turns and FIRST_TRIES for each key it is given; and a phone given its key
    before the guesser came still gets in with its first tries."""
    monkeypatch.setattr(codes, "DEVICE_STARTS", 12)
    monkeypatch.setattr(codes, "DEVICE_START_INTERVAL", codes.DEVICE_START_INTERVAL * 100)
    monkeypatch.setattr(codes, "ADDRESS_INTERVAL", codes.ADDRESS_INTERVAL * 100)
    url = reverse("player:code", args=[event.slug])
    a = event.players.get(name="Player A")
    early = Client()
    early.get(url, REMOTE_ADDR=VENUE)  # a player's phone at the venue before the guesser starts
    answers = Counter()
    for k in range(codes.ADDRESS_BUDGET + 10):  # the address's turns spent first, without a key
        answers[Client().post(url, {"code": wrong(a.number, k, a.code)}, REMOTE_ADDR=VENUE).status_code] += 1
    assert answers == {400: codes.ADDRESS_BUDGET, 429: 10}
    for k in range(3 * 12):  # then a new key for every few guesses
        phone = Client()
        phone.get(url, REMOTE_ADDR=VENUE)  # a new key if the address has one left
        for j in range(codes.FIRST_TRIES + 1):
            code = wrong(a.number, 1000 + k * 10 + j, a.code)
            answers[phone.post(url, {"code": code}, REMOTE_ADDR=VENUE).status_code] += 1
    keys = 12 - 1  # the early phone took one
    assert answers[400] == codes.ADDRESS_BUDGET + keys * codes.FIRST_TRIES, answers
    assert early.post(url, {"code": a.card_code}, REMOTE_ADDR=VENUE).status_code == 302


# ---------------------------------------------------------------- on the wire


def test_through_gunicorn_a_hall_gets_in_while_a_guesser_shares_its_address(tmp_path, fresh_database_url):  # noqa: F811
    players = [{"id": f"p{i}", "name": f"Hall {i:03d}"} for i in range(HALL)]
    doc = {"format": "swiss-event", "version": 1, "name": "Hall", "preset": "mtg", "players": players, "rounds": []}
    (tmp_path / "hall.json").write_text(json.dumps(doc))
    with served(tmp_path, fresh_database_url, WEB_CONCURRENCY="2") as (port, env):
        imported = run(["import_event", str(tmp_path / "hall.json"), "--slug", "hall"], env)
        assert imported.returncode == 0, imported.stderr
        shell(env, "from tournament.models import Event; Event.objects.update(public=True); print('ok')")
        cards = json.loads(
            shell(
                env,
                "import json; from tournament.models import Player;"
                " print(json.dumps([[p.number, p.code] for p in Player.objects.order_by('number')]))",
            )
        )
        assert len(cards) == HALL
        stop, answers, lock = threading.Event(), Counter(), threading.Lock()

        def guesser(keeps: bool) -> None:
            phone, k = Session(port), 0
            if keeps:
                phone.get("/e/hall/me/code/")  # its device key, kept
            else:
                phone.get("/login/")  # a CSRF cookie, and no device key ever
            while not stop.is_set():
                k += 1
                number, right = cards[(k * 7) % HALL]
                status = phone.post("/e/hall/me/code/", {"code": wrong(number, k, right)})[0]
                if not keeps:
                    phone.cookies.pop("swiss_device", None)  # a script that keeps no device key
                with lock:
                    answers[(keeps, status)] += 1

        def honest(share: list) -> None:
            for number, right in share:
                phone = Session(port)
                assert phone.get("/e/hall/me/code/")[0] == 200
                status = phone.post("/e/hall/me/code/", {"code": f"{number}-{right}"})[0]
                with lock:
                    answers[("honest", status)] += 1

        guessers = [threading.Thread(target=guesser, args=(keeps,)) for keeps in (True, False, False)]
        for g in guessers:
            g.start()
        deadline = time.monotonic() + 120
        while not (answers[(False, 429)] and answers[(True, 429)]):  # the guessers at full speed have spent it all
            assert time.monotonic() < deadline, answers
            time.sleep(0.2)
        started = time.monotonic()
        phones = [threading.Thread(target=honest, args=(cards[i::6],)) for i in range(6)]
        for t in phones:
            t.start()
        for t in phones:
            t.join(timeout=600)
        seconds = time.monotonic() - started
        stop.set()
        for g in guessers:
            g.join(timeout=60)
    print(f"\n{HALL} phones in {seconds:.1f} s beside the guessers: {dict(answers)}")
    assert answers[("honest", 302)] == HALL, answers
    assert answers[(True, 400)] <= codes.DEVICE_BUDGET + 2, answers  # its device's turns
    assert answers[(False, 400)] <= codes.ADDRESS_BUDGET + (seconds + 60) / 5, answers  # the address's
    assert answers[(True, 429)] > 0 and answers[(False, 429)] > 0
