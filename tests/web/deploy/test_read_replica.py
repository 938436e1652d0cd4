"""The public pages read from the read replica (`DATABASE_REPLICA_URL`, tournament/infra/routers.py); the organiser's
pages, every write and whoever wrote a moment ago read the primary.

The replica here is a second alias on the test database itself (TEST MIRROR, as settings.py sets it): which
alias a page's queries went to is what these tests look at. Transactional tests, so that the second
connection sees what the first wrote. The alias is added for this module only (a module-scoped fixture, set
up before the tests' database access is checked): everywhere else, no replica is configured.
"""

import pytest
from django.core.cache import cache
from django.db import connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.web.phone.test_self_report import match_of, phone, player, report
from tournament.infra.routers import REPLICA, WROTE_COOKIE, ReplicaRouter
from tournament.models import Event

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", REPLICA])


@pytest.fixture(scope="module", autouse=True)
def replica(django_db_setup):
    """The `replica` alias settings.py makes of DATABASE_REPLICA_URL, pointing at the test database."""
    default = connections.settings["default"]
    connections.settings[REPLICA] = {**default, "TEST": {**default["TEST"], "MIRROR": "default"}}
    try:
        yield REPLICA
    finally:
        connections[REPLICA].close()
        del connections[REPLICA]
        del connections.settings[REPLICA]


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()  # a page cached by another test would send no query at all


@pytest.fixture
def live_tx(live):
    return live


def reads(client: Client, url: str, **headers) -> tuple[int, int, int]:
    """The page's status and how many queries it sent to the primary and to the replica."""
    with CaptureQueriesContext(connections["default"]) as primary, CaptureQueriesContext(connections[REPLICA]) as copy:
        response = client.get(url, **headers)
    return response.status_code, len(primary.captured_queries), len(copy.captured_queries)


def test_the_public_pages_read_the_replica(live_tx):
    for name in ("home", "pairings", "standings", "screen", "crosstable"):
        status, primary, copy = reads(Client(), reverse(f"public:{name}", args=[live_tx.slug]))
        assert status == 200, name
        # The page from the replica; whether the event is shown, from the primary (one query by its key).
        assert copy >= 1 and primary == 1, (name, primary, copy)
    # A poll answered 304: its one query on the replica, and the primary's word that the event is shown.
    first = Client().get(reverse("public:pairings", args=[live_tx.slug]))
    status, primary, copy = reads(
        Client(), reverse("public:pairings", args=[live_tx.slug]), HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert (status, primary, copy) == (304, 1, 1)


def test_the_organisers_pages_and_a_signed_in_visitor_read_the_primary(live_tx, organiser):
    c = Client()
    c.force_login(organiser)
    for url in (
        reverse("org_event", args=[live_tx.slug]),
        reverse("org_players", args=[live_tx.slug]),
        reverse("public:pairings", args=[live_tx.slug]),  # their own event's public page: as it is now
    ):
        status, primary, copy = reads(c, url)
        assert status == 200 and primary >= 1 and copy == 0, (url, primary, copy)


def test_the_players_own_page_reads_the_primary(live_tx):
    c = phone(player(live_tx, "Player A"))
    status, primary, copy = reads(c, reverse("player:me", args=[live_tx.slug]))
    assert status == 200 and primary >= 1 and copy == 0


def test_a_phone_that_reported_reads_its_own_result_from_the_primary_then_the_replica_again(live_tx, settings):
    settings.READ_OWN_WRITES_SECONDS = 15
    pairings = reverse("public:pairings", args=[live_tx.slug])
    a, b = phone(player(live_tx, "Player A")), phone(player(live_tx, "Player C"))
    match = match_of(live_tx, "Player A")
    assert reads(a, pairings)[2] >= 1  # before reporting: the replica
    with CaptureQueriesContext(connections[REPLICA]) as copy:
        report(a, live_tx, match, "2-0")
        response = b.post(
            reverse("player:report", args=[live_tx.slug]),
            {"match": match.pk, "action": "confirm", "seen": str(type(match).objects.get(pk=match.pk).report_stamp)},
        )
    assert copy.captured_queries == []  # a write and the page it leads to: the primary only
    cookie = response.cookies[WROTE_COOKIE]
    assert cookie["max-age"] == 15 and cookie["httponly"] and cookie["samesite"] == "Lax"
    match.refresh_from_db()
    assert match.has_result
    for who in (a, b):
        status, primary, copy = reads(who, pairings)
        assert status == 200 and primary >= 1 and copy == 0
    # The cookie gone (after READ_OWN_WRITES_SECONDS the browser drops it): the replica again.
    del b.cookies[WROTE_COOKIE]
    status, primary, copy = reads(b, pairings)
    assert status == 200 and primary == 1 and copy >= 1  # the primary: whether the event is shown, alone


def test_without_a_replica_everything_reads_the_primary(live_tx):
    assert ReplicaRouter().db_for_read(Event) is None and ReplicaRouter().db_for_write(Event) == "default"
    configured = connections.settings.pop(REPLICA)
    try:
        with CaptureQueriesContext(connections["default"]) as primary:
            assert Client().get(reverse("public:pairings", args=[live_tx.slug])).status_code == 200
    finally:
        connections.settings[REPLICA] = configured
    assert primary.captured_queries


def test_nothing_migrates_the_replica():
    router = ReplicaRouter()
    assert router.allow_migrate(REPLICA, "tournament") is False
    assert router.allow_migrate("default", "tournament") is None


def test_an_event_hidden_a_moment_ago_is_hidden_at_once_while_the_replica_lags(live_tx):
    """A replica behind the primary: here, the replica's connection held in a snapshot taken before the organiser
    hid the event (REPEATABLE READ), as a lagging standby is. The page is still read from the replica, but whether
    it is shown is the primary's answer: hidden at once, not once the replica catches up."""
    from django.db import connection, transaction

    if connection.vendor != "postgresql":
        pytest.skip("a snapshot held open on a second connection: PostgreSQL (DATABASE_URL=postgres://...)")
    url = reverse("public:pairings", args=[live_tx.slug])
    assert Client().get(url).status_code == 200
    with transaction.atomic(using=REPLICA):
        lagging = connections[REPLICA].cursor()
        lagging.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        lagging.execute("SELECT count(*) FROM tournament_event")  # the snapshot: the replica's view from now on
        Event.objects.using("default").filter(pk=live_tx.pk).update(public=False)  # the organiser hides it
        assert Event.objects.using(REPLICA).get(pk=live_tx.pk).public  # the replica still shows it
        for name in ("home", "pairings", "standings", "screen", "crosstable"):
            status, primary, copy = reads(Client(), reverse(f"public:{name}", args=[live_tx.slug]))
            assert status == 404 and copy >= 1 and primary == 1, (name, status, primary, copy)
    assert Client().get(url).status_code == 404
