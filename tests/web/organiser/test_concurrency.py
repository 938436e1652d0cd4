"""Two people at once: results entered for the same match, a round paired twice, a round published twice.

Each contender runs in its own thread with its own database connection, released at the same moment by
a barrier, through the real views (a logged-in `Client` per person) or the service functions. They run
on both databases: PostgreSQL decides them with row locks, SQLite (a file, as `make run` uses) by making
each transaction wait for the write lock when it begins.
"""

import threading
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tournament.models import EventLog, EventRole, Match, ResultChange, Round
from tournament.services.clock import change_clock
from tournament.services.locks import ServiceError
from tournament.services.results import ConfirmReplace, Outcome, record_result
from tournament.services.rounds import pair_next_round
from tournament.snapshot import create_matches
from tournament.text.results import result_label

pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HX-Request": "true"}


def at_once(*jobs: Callable[[], object]) -> list[object]:
    """Run every job in its own thread and connection, all released together; their results in order."""
    barrier = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def run(i: int, job: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = job()
        except BaseException as e:  # noqa: BLE001 - handed to the test, which decides
            results[i] = e
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a contender hung (deadlock?)"
    return results


def logged_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def published_round(event, number=1) -> Round:
    rnd = Round.objects.create(event=event, number=number, state=Round.State.PAIRED, seed=1)
    ps = list(event.players.order_by("name"))
    create_matches(
        rnd, [Match(round=rnd, table=i // 2 + 1, player_a=ps[i], player_b=ps[i + 1]) for i in range(0, len(ps) - 1, 2)]
    )
    return rnd


@pytest.fixture
def second_organiser(django_user_model, event):
    user = django_user_model.objects.create_user("oscar", password="organiser-pass-2")
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    return user


# ---------------------------------------------------------------- results


def test_two_judges_enter_different_results_for_every_table_at_once(event, organiser, judge):
    """One wins per table, the other is told what is stored; the audit log has exactly the stored result."""
    rnd = published_round(event)
    clients = {"2-0": logged_in(organiser), "0-2": logged_in(judge)}
    for m in rnd.matches.all():
        url = reverse("org_match_result", args=[event.slug, 1, m.pk])
        responses = at_once(
            *(
                lambda c=c, r=r, url=url: c.post(url, {"result": r, "version": 0}, headers=HX)
                for r, c in clients.items()
            )
        )
        assert all(getattr(r, "status_code", None) == 200 for r in responses), responses
        m.refresh_from_db()
        stored = result_label(m)
        assert stored in clients and m.version == 1
        won = [r for r in responses if b"since this page was shown" not in r.content]
        lost = [r for r in responses if b"since this page was shown" in r.content]
        assert len(won) == 1 and len(lost) == 1
        # The loser sees the stored result and who entered it, and is asked whether to replace it.
        who = m.entered_by.username
        assert f"was changed to {stored} by {who} since this page was shown".encode() in lost[0].content
        assert b'name="confirm" value="1"' in lost[0].content
        changes = list(ResultChange.objects.filter(match=m))
        assert [(c.before, c.after) for c in changes] == [(None, {"result": "played", "games": list(m.games)})]
        assert changes[0].by == m.entered_by


def test_the_same_result_from_two_people_at_once_is_stored_once(event, organiser, judge):
    rnd = published_round(event)
    m = rnd.matches.get(table=1)
    url = reverse("org_match_result", args=[event.slug, 1, m.pk])
    responses = at_once(
        *(
            lambda c=c: c.post(url, {"result": "2-1", "version": 0}, headers=HX)
            for c in map(logged_in, [organiser, judge])
        )
    )
    assert [r.status_code for r in responses] == [200, 200]
    assert not any(b"Replace" in r.content for r in responses)
    m.refresh_from_db()
    assert m.games == (2, 1, 0) and m.version == 1
    assert ResultChange.objects.filter(match=m).count() == 1


def test_the_keyboard_path_does_not_overwrite_a_result_typed_at_the_same_moment(event, organiser, judge):
    rnd = published_round(event)
    url = reverse("org_table_result", args=[event.slug, 1])
    responses = at_once(
        lambda: logged_in(organiser).post(url, {"table": 2, "result": "2-0"}, headers=HX),
        lambda: logged_in(judge).post(url, {"table": 2, "result": "1-2"}, headers=HX),
    )
    m = rnd.matches.get(table=2)
    assert [r.status_code for r in responses] == [200, 200]
    lost = [r for r in responses if b"already has" in r.content]
    stored = f"already has {result_label(m)}, entered by {m.entered_by.username}. Replace it with"
    assert len(lost) == 1 and stored.encode() in lost[0].content
    assert ResultChange.objects.filter(match=m).count() == 1 and m.version == 1


def test_typing_over_a_stored_result_is_refused_and_shows_it(event, organiser, judge):
    rnd = published_round(event)
    url = reverse("org_table_result", args=[event.slug, 1])
    logged_in(organiser).post(url, {"table": 3, "result": "2-0"}, headers=HX)
    again = logged_in(judge).post(url, {"table": 3, "result": "2-0"}, headers=HX)
    other = logged_in(judge).post(url, {"table": 3, "result": "0-2"}, headers=HX)
    assert b"already has" not in again.content
    assert b"Table 3 already has 2-0, entered by olga. Replace it with 0-2?" in other.content
    m = rnd.matches.get(table=3)
    assert m.games == (2, 0, 0) and ResultChange.objects.filter(match=m).count() == 1


def test_many_contenders_through_the_service_one_result_stored(event, organiser, judge):
    rnd = published_round(event)
    m = rnd.matches.get(table=1)
    outcomes = [Outcome("played", g) for g in [(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 0)]]
    outcomes += [Outcome("double_loss", None)]
    results = at_once(
        *(
            lambda o=o, by=by: record_result(m, o, by, expected_version=0)
            for o, by in zip(outcomes, [organiser, judge] * 3, strict=True)
        )
    )
    stored = [r for r in results if isinstance(r, Match)]
    conflicts = [r for r in results if isinstance(r, ConfirmReplace)]
    assert len(stored) == 1 and len(conflicts) == len(outcomes) - 1, results
    m.refresh_from_db()
    assert m.snapshot() == stored[0].snapshot()
    assert all(c.match.snapshot() == m.snapshot() for c in conflicts)
    assert [c.after for c in ResultChange.objects.filter(match=m)] == [m.snapshot()]


# ---------------------------------------------------------------- pairing and publishing


def _messages(response) -> str:
    # The page's text, not `response.context`: the test client's template signal is global, so
    # a thread would also see the other thread's renderings.
    return response.content.decode()


def test_pair_round_twice_at_once_makes_one_round_and_tells_the_loser(event, organiser, second_organiser):
    url = reverse("org_round_pair", args=[event.slug])
    responses = at_once(*(lambda c=c: c.post(url, follow=True) for c in map(logged_in, [organiser, second_organiser])))
    assert [r.status_code for r in responses] == [200, 200]
    assert list(event.rounds.values_list("number", flat=True)) == [1]
    assert EventLog.objects.filter(event=event, action="pair").count() == 1
    rnd = event.rounds.get()
    assert rnd.matches.count() == 4 and rnd.seats.count() == 8
    texts = [_messages(r) for r in responses]
    assert sum("Round 1 is paired" in t for t in texts) == 1
    loser = next(t for t in texts if "Round 1 is paired" not in t)
    assert "Round 1 is still a draft" in loser or "just paired by someone else" in loser


def test_pairing_the_next_round_from_four_tabs_pairs_it_once(event, organiser):
    rnd = published_round(event)
    for m in rnd.matches.all():
        record_result(m, Outcome("played", (2, 0, 0)), organiser)
    results = at_once(*(lambda: pair_next_round(event, organiser) for _ in range(4)))
    made = [r for r in results if isinstance(r, Round)]
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(made) == 1 and len(refused) == 3, results
    assert made[0].number == 2 and list(event.rounds.values_list("number", flat=True)) == [1, 2]
    assert all("Round 2" in str(e) or "someone else" in str(e) for e in refused)


def test_publishing_twice_at_once_logs_one_publish(event, organiser, second_organiser):
    rnd = published_round(event)
    Round.objects.filter(pk=rnd.pk).update(state=Round.State.DRAFT)
    url = reverse("org_round_publish", args=[event.slug, 1])
    version = event.version
    responses = at_once(*(lambda c=c: c.post(url) for c in map(logged_in, [organiser, second_organiser])))
    assert [r.status_code for r in responses] == [302, 302]
    assert EventLog.objects.filter(event=event, action="publish").count() == 1
    event.refresh_from_db()
    assert event.rounds.get().state == Round.State.PAIRED and event.version == version + 1


def test_two_corrections_of_one_result_at_once_do_not_overwrite_each_other(event, organiser, judge):
    """Two people fix the same earlier result from pages showing the same stored result: one fix wins."""
    first = published_round(event)
    for m in first.matches.all():
        record_result(m, Outcome("played", (2, 0, 0)), organiser)
    published_round(event, 2)
    m = first.matches.get(table=1)
    url = reverse("org_match", args=[event.slug, 1, m.pk])
    fixes = {"organiser": {"games_a": 0, "games_b": 2}, "judge": {"games_a": 1, "games_b": 1}}
    clients = [logged_in(organiser), logged_in(judge)]
    responses = at_once(
        *(
            lambda c=c, fix=fix: c.post(url, {**fix, "version": m.version, "confirm": "on"})
            for c, fix in zip(clients, fixes.values(), strict=True)
        )
    )
    assert sorted(r.status_code for r in responses) == [200, 302]
    refused = next(r for r in responses if r.status_code == 200).content.decode()
    m.refresh_from_db()
    who = m.entered_by.username
    assert f"was changed to {result_label(m)} by {who} since this page was shown" in refused
    assert [c.after for c in ResultChange.objects.filter(match=m, before__isnull=False)] == [m.snapshot()]


def test_clock_minutes_added_from_several_pages_at_once_all_count(event, organiser, judge, second_organiser):
    """A "+5 min" read the length and wrote it back plus five: two clicks at once added five minutes, not ten."""
    rnd = published_round(event)
    change_clock(rnd, "start", organiser)
    url = reverse("org_round_clock", args=[event.slug, 1])
    people = [organiser, judge, second_organiser] * 2
    responses = at_once(*(lambda c=c: c.post(url, {"action": "add", "minutes": 5}) for c in map(logged_in, people)))
    assert [r.status_code for r in responses] == [302] * len(people), responses
    rnd.refresh_from_db()
    assert rnd.clock_minutes == event.round_minutes + 5 * len(people)
    assert Round.objects.get(pk=rnd.pk).event.version == event.version + 1 + len(people)


def test_the_clock_paused_and_lengthened_at_once_keeps_both(event, organiser, judge):
    """Different clock changes at once each apply once, on the clock as the other left it (they wait for each
    other on the round row, and neither is refused)."""
    rnd = published_round(event)
    change_clock(rnd, "start", organiser)
    url = reverse("org_round_clock", args=[event.slug, 1])
    org, jc = logged_in(organiser), logged_in(judge)
    for _ in range(3):
        at_once(
            lambda: org.post(url, {"action": "pause"}),
            lambda: jc.post(url, {"action": "add", "minutes": 10}),
        )
        rnd.refresh_from_db()
        assert rnd.clock_paused_at is not None
        at_once(
            lambda: org.post(url, {"action": "resume"}),
            lambda: jc.post(url, {"action": "add", "minutes": -5}),
        )
        rnd.refresh_from_db()
        assert rnd.clock_paused_at is None
    assert rnd.clock_minutes == event.round_minutes + 3 * 5
