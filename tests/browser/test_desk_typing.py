"""Typing ahead at the desk over slow venue Wi-Fi: nothing typed is lost, no result lands on another table, and a
question is never answered by a key typed before it was asked.

An arbiter typed `17⏎1⏎ 131⏎0⏎ 18⏎1⏎ …` at 70 ms a key: the answer to each entry replaced the form under their
fingers, so the 1 of 131 was lost (0-1 went to table 31), table 8's draw became 1-0 through a queued Enter, and
tables 18, 19 and 131-133 stayed empty. The quick-add box lost letters the same way ("Karen sen")."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.conftest import new_chess_event
from tournament.models import Event, Match, Player, ResultChange, Round
from tournament.services.results import parse_outcome, record_result
from tournament.snapshot import create_matches

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LATENCY = 0.4  # seconds added to every answer to a POST: the venue's Wi-Fi


def slow_posts(page, pattern: str):
    """Every POST to `pattern` is answered LATENCY seconds late (its request reaches the server at once)."""

    def late(route):
        if route.request.method != "POST":
            route.continue_()
            return
        response = route.fetch()
        time.sleep(LATENCY)
        route.fulfill(response=response)

    page.route(pattern, late)


def quiet(page, read, still: float = 1.5, at_most: float = 30):
    """`read()` once it has stopped changing for `still` seconds (the answers have stopped coming). Waits with the
    page's clock, so the delayed answers keep being released meanwhile."""
    value, since, start = read(), time.monotonic(), time.monotonic()
    while time.monotonic() - since < still and time.monotonic() - start < at_most:
        page.wait_for_timeout(250)
        now = read()
        if now != value:
            value, since = now, time.monotonic()
    return value


def log_in(page, base: str):
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("organiser-pass-1")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your events")).to_be_visible()


@pytest.fixture
def open_round(organiser, judge):
    """A chess open of 270 players: round 1 published, tables 1-135; table 8 already holds ½-½ (the judge's)."""
    event = new_chess_event(organiser, {}, slug="big-open")
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:03d}", rating=2400 - i) for i in range(270))
    rnd = Round.objects.create(event=event, number=1, state=Round.State.PAIRED, seed=1)
    ps = list(event.players.order_by("name"))
    create_matches(
        rnd,
        [Match(round=rnd, table=i // 2 + 1, player_a=ps[i], player_b=ps[i + 1], white=ps[i]) for i in range(0, 270, 2)],
    )
    record_result(rnd.matches.get(table=8), parse_outcome("=", 1, True), judge)
    return rnd


# What the arbiter typed, entry by entry: (table, result), and what must become of it. Table 8 already has ½-½:
# its 1 is a question, and the Enter typed right after it belongs to table 19, never to the question. "20⏎⏎" has
# no result and 999 is no table: both refused, and the entries after them land where they were typed.
BURST = [
    ("17", "1"),
    ("131", "0"),
    ("18", "1"),
    ("8", "1"),
    ("19", "="),
    ("132", "1"),
    ("20", ""),
    ("133", "0"),
    ("999", "1"),
    ("43", "="),
    ("134", "1"),
]
STORED = {17: (1, 0, 0), 131: (0, 1, 0), 18: (1, 0, 0), 19: (0, 0, 1), 132: (1, 0, 0), 133: (0, 1, 0)}
STORED |= {43: (0, 0, 1), 134: (1, 0, 0), 8: (0, 0, 1)}
LABEL = {"1": "1-0", "0": "0-1", "=": "½-½"}


def settled(page):
    """Every entry typed has its answer: none is waiting or on its way."""
    expect(page.locator("#desk-log .entry")).to_have_count(len(BURST))
    expect(page.locator("#desk-log .entry.waiting, #desk-log .entry.sending")).to_have_count(0, timeout=30_000)


def test_a_burst_typed_over_slow_wifi_lands_on_exactly_the_tables_typed(live_server, page, open_round, shot):
    rnd = open_round
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server.url)
    slow_posts(page, "**/rounds/1/result/")
    page.goto(f"{live_server.url}/events/{rnd.event.slug}/rounds/1/")
    expect(page.get_by_label("Table", exact=True)).to_be_focused()

    page.keyboard.type("".join(f"{table}\n{result}\n" for table, result in BURST), delay=70)
    stored = quiet(page, lambda: {m.table: m.games for m in rnd.matches.exclude(games_a=None)})
    # Exactly what was typed, on exactly the tables typed; table 8 keeps its draw (no queued Enter answered).
    assert stored == STORED
    # Sent one after another, in the order typed (table 8's question stored nothing).
    order = ResultChange.objects.filter(match__round=rnd, by__username="olga").order_by("id")
    assert [c.match.table for c in order.select_related("match")] == [17, 131, 18, 19, 132, 133, 43, 134]
    # The fields are empty for the next entry, and every entry has its answer in the running list.
    expect(page.get_by_label("Table", exact=True)).to_be_focused()
    expect(page.get_by_label("Table", exact=True)).to_have_value("")
    settled(page)
    shot("burst-answered")

    log = page.locator("#desk-log")
    for table, result in BURST:
        if int(table) in STORED and table != "8":
            line = log.locator(".entry.stored", has_text=re.compile(rf"^\s*T{table} "))
            expect(line).to_have_count(1)
            expect(line).to_contain_text(re.compile(rf"T{table} {re.escape(LABEL[result])} ✓"))
    refused = log.locator(".entry.refused")
    expect(refused).to_have_count(2)
    expect(refused.filter(has_text="T20")).to_contain_text("No result: nothing was entered.")
    expect(refused.filter(has_text="T999")).to_contain_text("There is no table 999 in round 1.")

    # Table 8 keeps its draw until the question is answered, by its own button.
    question = log.locator(".entry.asking")
    expect(question).to_have_count(1)
    expect(question).to_contain_text("Table 8 already has ½-½, entered by jules. Replace it with 1-0?")
    assert rnd.matches.get(table=8).games == (0, 0, 1)
    question.get_by_role("button", name="Replace with 1-0").click()
    expect(log.locator(".entry.stored", has_text=re.compile(r"^\s*T8 "))).to_contain_text("T8 1-0 ✓")
    assert rnd.matches.get(table=8).games == (1, 0, 0)
    expect(page.get_by_label("Table", exact=True)).to_be_focused()
    expect(page.locator("#matches tr.match[data-table='131'] .result-label")).to_have_text("0-1")
    shot("question-answered")


def test_an_ordinary_pace_over_slow_wifi_keeps_a_two_digit_table(live_server, page, open_round):
    """At 150 ms a key, 43⏎=⏎ was stored as table 3: the 4 went into the form being replaced."""
    rnd = open_round
    log_in(page, live_server.url)
    slow_posts(page, "**/rounds/1/result/")
    page.goto(f"{live_server.url}/events/{rnd.event.slug}/rounds/1/")
    expect(page.get_by_label("Table", exact=True)).to_be_focused()
    page.keyboard.type("42\n1\n43\n=\n44\n0\n", delay=150)
    stored = quiet(page, lambda: {m.table: m.games for m in rnd.matches.exclude(games_a=None)})
    assert stored == {8: (0, 0, 1), 42: (1, 0, 0), 43: (0, 0, 1), 44: (0, 1, 0)}
    expect(page.locator("#desk-log .entry.stored")).to_have_count(3)


def test_an_entry_the_server_did_not_answer_waits_with_send_again(live_server, page, open_round):
    """The Wi-Fi drops one entry: it stays in the list as not stored, with Send again, and the entries typed after it
    wait for it (sent in the order typed once it goes through)."""
    rnd = open_round
    log_in(page, live_server.url)
    lost = []

    def drop_the_first(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.request.post_data)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/rounds/1/result/", drop_the_first)
    page.goto(f"{live_server.url}/events/{rnd.event.slug}/rounds/1/")
    expect(page.get_by_label("Table", exact=True)).to_be_focused()
    page.keyboard.type("17\n1\n18\n0\n", delay=70)
    log = page.locator("#desk-log")
    failed = log.locator(".entry.failed")
    expect(failed).to_contain_text("T17 1")
    expect(failed).to_contain_text("Not stored: the server did not answer.")
    expect(log.locator(".entry.waiting")).to_contain_text("T18 0")
    assert not rnd.matches.filter(table__in=[17, 18]).exclude(games_a=None).exists()
    failed.get_by_role("button", name="Send again").click()
    expect(log.locator(".entry.stored")).to_have_count(2)
    order = ResultChange.objects.filter(match__round=rnd, by__username="olga").order_by("id")
    assert [(c.match.table, c.match.games) for c in order.select_related("match")] == [
        (17, (1, 0, 0)),
        (18, (0, 1, 0)),
    ]


NAMES = ["Olsen, Karen, 1850", "Madsen, Sofie, 1720", "Anders Berg", "Nørgaard, Mette", "Ib Holm, 1500"]


def test_names_typed_straight_on_over_slow_wifi_are_stored_whole(live_server, page, organiser):
    event = Event.objects.create(slug="club", name="Club Night")
    event.roles.create(user=organiser, role="organiser")
    log_in(page, live_server.url)
    slow_posts(page, "**/players/add/")
    page.goto(f"{live_server.url}/events/club/players/")
    box = page.get_by_label("Add a player")
    expect(box).to_be_focused()
    page.keyboard.type("".join(f"{n}\n" for n in NAMES), delay=70)
    stored = quiet(page, lambda: sorted(event.players.values_list("name", "rating")))
    assert stored == sorted(
        [
            ("Karen Olsen", 1850),
            ("Sofie Madsen", 1720),
            ("Anders Berg", None),
            ("Mette Nørgaard", None),
            ("Ib Holm", 1500),
        ]
    )
    expect(box).to_be_focused()
    expect(page.locator("#add-log .entry.stored")).to_have_count(len(NAMES))
    log = page.locator("#add-log")
    for name in ("Karen Olsen", "Sofie Madsen", "Anders Berg", "Mette Nørgaard", "Ib Holm"):
        expect(log).to_contain_text(f"Added {name} (#")
    expect(page.locator("#roster table.players tbody tr")).to_have_count(len(NAMES))
    # Enter on an empty box sends nothing.
    page.keyboard.press("Enter")
    expect(page.locator("#add-log .entry")).to_have_count(len(NAMES))
