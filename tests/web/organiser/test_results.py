"""Entering and changing a result, the same way on every path: one-click buttons, the keyboard entry,
the “other…” form and the top cut."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from swiss.eventfile import EventFileError, loads
from tests.web.security.test_fuzz_inputs import FUZZ, assert_valid_stored, field, junk, near_result, rolled_back
from tournament.models import Event, EventLog, EventRole, Match, ResultChange, Round
from tournament.services.results import parse_outcome, shorthands
from tournament.snapshot import create_matches

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def paired(event, number=1, state=Round.State.PAIRED, kind=Round.Kind.SWISS):
    rnd = Round.objects.create(event=event, number=number, state=state, kind=kind, seed=1)
    ps = list(event.players.order_by("name"))
    create_matches(
        rnd, [Match(round=rnd, table=i // 2 + 1, player_a=ps[i], player_b=ps[i + 1]) for i in range(0, len(ps) - 1, 2)]
    )
    return rnd


def url(name, event, *args):
    return reverse(name, args=[event.slug, *args])


def button(c, event, m, result, **extra):
    return c.post(url("org_match_result", event, m.round.number, m.pk), {"result": result, **extra}, headers=HX)


def keyboard(c, event, table, result, **extra):
    return c.post(url("org_table_result", event, 1), {"table": table, "result": result, **extra}, headers=HX)


def other(c, event, m, **data):
    return c.post(url("org_match", event, m.round.number, m.pk), data)


def nothing_stored():
    return not Match.objects.exclude(games_a=None).exists() and not ResultChange.objects.exists()


# ---------------------------------------------------------------- impossible results


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("2-0-5", "at most 3 drawn games"),
        ("1-1-5", "at most 3 drawn games"),
        ("2-0-40000", "at most 3 drawn games"),
        ("1-1-99999", "at most 3 drawn games"),
        ("3-0", "nobody wins more than 2 games"),
        ("²-⁰", "is not a result"),
        ("1-1-" + "9" * 5000, "not a result"),
    ],
)
def test_impossible_results_are_refused_on_every_path(org, event, typed, message):
    rnd = paired(event)
    m = rnd.matches.get(table=1)
    assert message in button(org, event, m, typed, version=0).content.decode()
    r = keyboard(org, event, 1, typed)
    assert r.status_code == 200 and message in r.content.decode()
    # The desk's running list shows the entry refused, as typed, with why; the fields typed in are not sent back.
    assert '<li class="entry refused">' in r.content.decode() and ">T1</strong>" in r.content.decode()
    assert 'id="tf-result"' not in r.content.decode()
    parts = (typed.split("-") + ["0"])[:3]
    if all(p.isdecimal() and p.isascii() and len(p) < 6 for p in parts):
        a, b, d = map(int, parts)
        r = other(org, event, m, games_a=a, games_b=b, games_drawn=d, version=0)
        body = r.content.decode()
        assert r.status_code == 200 and (message in body or "less than or equal to 9" in body)
    assert nothing_stored()


def test_double_loss_ticked_with_games_is_refused_not_guessed(org, event):
    m = paired(event).matches.get(table=1)
    r = other(org, event, m, games_a=2, games_b=0, double_loss="on", version=0)
    assert r.status_code == 200 and "“Double loss” is ticked and games are filled in (2-0-0)" in r.content.decode()
    assert nothing_stored()
    assert other(org, event, m, double_loss="on", version=0).status_code == 302
    m.refresh_from_db()
    assert m.result == Match.Result.DOUBLE_LOSS


def test_an_intentional_draw_is_0_0_3_on_every_path(org, event):
    rnd = paired(event)
    assert b"0-0-3" in button(org, event, rnd.matches.get(table=1), "0-0-3", version=0).content
    keyboard(org, event, 2, "id")
    assert other(org, event, rnd.matches.get(table=3), games_drawn=3, version=0).status_code == 302
    assert set(Match.objects.exclude(games_a=None).values_list("games_a", "games_b", "games_drawn")) == {(0, 0, 3)}


# ---------------------------------------------------------------- drafts and versions


def test_every_result_path_refuses_a_draft_round_the_same_way(org, event):
    rnd = paired(event, state=Round.State.DRAFT)
    m = rnd.matches.get(table=1)
    said = "Round 1 is a draft: publish it before entering results."
    assert said in button(org, event, m, "2-0", version=0).content.decode()
    assert said in keyboard(org, event, 1, "2-0").content.decode()
    assert said in other(org, event, m, games_a=2, version=0).content.decode()
    assert said in other(org, event, m, double_loss="on", version=0).content.decode()
    # Without HTMX (the top-cut page's plain forms) the refusal is a message on the page it returns to.
    r = org.post(url("org_match_result", event, 1, m.pk), {"result": "2-0", "version": 0}, follow=True)
    assert said in r.content.decode()
    assert nothing_stored()


def test_a_result_post_without_version_is_refused(org, event):
    rnd = paired(event)
    m = rnd.matches.get(table=1)
    stale = "This page is out of date: reload it and enter the result again."
    assert stale in button(org, event, m, "2-0").content.decode()
    assert stale in other(org, event, m, games_a=2).content.decode()
    assert nothing_stored()
    button(org, event, m, "2-0", version=0)
    # A replacement without the version it replaces never overwrites, whatever else it claims.
    assert stale in button(org, event, m, "0-2", confirm="1").content.decode()
    assert "Replace" in keyboard(org, event, 1, "0-2", confirm="1").content.decode()
    m.refresh_from_db()
    assert m.games == (2, 0, 0) and m.version == 1


def test_the_other_form_keeps_its_version_hidden(org, event):
    m = paired(event).matches.get(table=1)
    page = org.get(url("org_match", event, 1, m.pk)).content.decode()
    assert '<input type="hidden" name="version" value="0">' in page
    assert 'type="number" name="version"' not in page and 'name="confirm"' not in page


# ---------------------------------------------------------------- changing a stored result


def test_one_click_replacement_says_what_it_replaces_asks_once_and_is_logged(org, event, organiser):
    m = paired(event).matches.get(table=1)
    button(org, event, m, "2-0", version=0)
    r = button(org, event, m, "2-1", version=1).content.decode()
    assert "Table 1 already has 2-0, entered by you. Replace it with 2-1?" in r
    assert 'name="result" value="2-1" class="primary">Replace with 2-1</button>' in r
    assert 'name="result" value="2-0">Keep 2-0</button>' in r and '<input type="hidden" name="version" value="1">' in r
    m.refresh_from_db()
    assert m.games == (2, 0, 0)
    button(org, event, m, "2-0", version=1, confirm="1")  # Keep: nothing changes
    assert ResultChange.objects.filter(match=m).count() == 1
    r = button(org, event, m, "2-1", version=1, confirm="1").content.decode()
    assert "Replace" not in r and "2-1" in r
    m.refresh_from_db()
    assert m.games == (2, 1, 0)
    log = EventLog.objects.get(action="correct_result")
    assert log.by == organiser and log.detail == {"round": 1, "table": 1, "before": "2-0", "after": "2-1"}
    page = org.get(url("org_round", event, 1)).content.decode()
    assert "2-0 → 2-1" in page  # the round page's corrections list


def test_keyboard_replacement_asks_once_keep_or_replace(org, event, judge):
    rnd = paired(event)
    jc = Client()
    jc.force_login(judge)
    keyboard(jc, event, 3, "2-0-1")
    r = keyboard(org, event, 3, "2-1").content.decode()
    assert "Table 3 already has 2-0-1, entered by jules. Replace it with 2-1?" in r
    # The question takes no focus (a key typed ahead never answers it) and carries what was typed for the answer.
    assert 'data-answer="replace">' in r and "autofocus" not in r
    assert '<input type="hidden" name="version" value="1">' in r
    assert (
        '<input type="hidden" name="table" value="3">' in r and '<input type="hidden" name="result" value="2-1">' in r
    )
    r = keyboard(org, event, 3, "2-1", version=1, keep="1").content.decode()
    assert "Table 3 keeps 2-0-1." in r and 'name="table"' not in r and '<li class="entry kept">' in r
    assert rnd.matches.get(table=3).games == (2, 0, 1)
    r = keyboard(org, event, 3, "2-1", version=1, confirm="1").content.decode()
    assert "Replace" not in r and rnd.matches.get(table=3).games == (2, 1, 0)
    assert EventLog.objects.filter(action="correct_result").count() == 1


def test_an_earlier_rounds_result_is_changed_by_the_same_rule(org, event):
    first = paired(event)
    for m in first.matches.all():
        button(org, event, m, "2-0", version=0)
    paired(event, 2)
    m = first.matches.get(table=2)
    r = button(org, event, m, "1-2", version=1).content.decode()
    assert "Table 2 already has 2-0, entered by you. Replace it with 1-2?" in r
    # Without HTMX the question is asked on the match page with the new result filled in.
    r = org.post(url("org_match_result", event, 1, m.pk), {"result": "1-2", "version": 1})
    body = r.content.decode()
    assert r.status_code == 200 and "Replace 2-0 with 1-2" in body and 'name="games_a" value="1"' in body
    r = org.post(url("org_table_result", event, 1), {"table": 2, "result": "12"})
    assert r.status_code == 200 and "Replace 2-0 with 1-2" in r.content.decode()
    assert other(org, event, m, games_a=1, games_b=2, version=1, confirm="1").status_code == 302
    m.refresh_from_db()
    assert m.games == (1, 2, 0) and EventLog.objects.filter(action="correct_result").count() == 1


# ---------------------------------------------------------------- the keyboard hint


@pytest.mark.parametrize(("best_of", "elimination"), [(1, False), (3, False), (5, False), (3, True)])
def test_the_hint_lists_every_accepted_shorthand_and_each_means_what_it_says(best_of, elimination):
    rows = shorthands(best_of, elimination)
    for label, typed in rows:
        meant = parse_outcome(label.split()[-1], best_of) if "-" in label else None
        for t in typed:
            outcome = parse_outcome(t, best_of)
            assert meant is None or outcome == meant, (label, t)
    typed = {t for _, ts in rows for t in ts}
    assert ("dl" in typed) is not elimination and ("d" in typed) is not elimination
    assert {"20", "21", "12", "02"} <= typed if best_of == 3 else True


def test_the_round_page_shows_the_hint(org, event):
    paired(event)
    page = org.get(url("org_round", event, 1)).content.decode()
    for t in ["20", "21", "12", "02", "11", "d", "draw", "003", "id", "intentional", "dl", "double", "double loss"]:
        assert f"<kbd>{t}</kbd>" in page, t
    assert (
        'id="tf-table" name="table" inputmode="numeric" autocomplete="off" aria-describedby="tf-hint" autofocus' in page
    )


# ---------------------------------------------------------------- best of 1, 3, 5 or 7


def test_best_of_is_one_of_1_3_5_7_in_the_form_the_database_and_the_event_file(org, event):
    from tests.web.organiser.test_organiser import settings_data

    for bad in (32767, 2, 0):
        r = org.post(url("org_settings", event), settings_data(event, best_of=bad))
        assert r.status_code == 200 and "is not one of the available choices" in r.content.decode()
    assert org.post(url("org_settings", event), settings_data(event, best_of=5)).status_code == 302
    event.refresh_from_db()
    assert event.best_of == 5
    with pytest.raises(ValidationError):
        Event(slug="x", name="x", best_of=9, tiebreakers=["omw"]).full_clean()
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.filter(pk=event.pk).update(best_of=32767)
    base = {"format": "swiss-event", "version": 1, "name": "E", "players": [], "rounds": []}
    with pytest.raises(EventFileError, match="best_of: expected one of 1, 3, 5, 7"):
        loads(json.dumps(base | {"best_of": 99}))
    assert loads(json.dumps(base | {"best_of": 7})).settings.best_of == 7


def test_an_event_file_with_results_in_a_draft_round_is_refused_by_place():
    players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]
    base = {"format": "swiss-event", "version": 1, "name": "E", "players": players}
    for match in ({"a": "a", "b": "b", "games": [2, 0, 0]}, {"a": "a", "b": "b", "result": "double_loss"}):
        draft = {"number": 1, "state": "draft", "matches": [match]}
        with pytest.raises(EventFileError, match=r"rounds\[0\]\.matches\[0\]: a draft round has no results"):
            loads(json.dumps(base | {"rounds": [draft]}))
    pending = {"number": 1, "state": "draft", "matches": [{"a": "a", "b": "b"}]}
    assert loads(json.dumps(base | {"rounds": [pending]})).rounds[0].state == "draft"


def test_an_outsider_cannot_enter_results(event, outsider):
    m = paired(event).matches.get(table=1)
    c = Client()
    c.force_login(outsider)
    assert button(c, event, m, "2-0", version=0).status_code == 404
    assert keyboard(c, event, 1, "2-0").status_code == 404
    assert EventRole.objects.filter(user=outsider).count() == 0 and nothing_stored()


# ---------------------------------------------------------------- answers to “replace?” from anywhere


@pytest.fixture
def stored(org, event):
    """Table 1 of round 1 holds 2-0 (version 1)."""
    m = paired(event).matches.get(table=1)
    button(org, event, m, "2-0", version=0)
    return m


@FUZZ
@given(
    result=st.one_of(junk, near_result),
    extra=st.fixed_dictionaries(
        {},
        optional={"version": field, "confirm": st.sampled_from(["1", "on", "", "0", "x"]), "keep": field},
    ),
)
def test_no_answer_overwrites_a_result_it_did_not_see(org, event, stored, result, extra):
    """Whatever a keyboard or button post claims, a stored result changes only with confirm and its version."""
    m = stored
    with rolled_back():
        for r in (keyboard(org, event, 1, result, **extra), button(org, event, m, result, **extra)):
            assert r.status_code == 200
        m.refresh_from_db()
        answered = str(extra.get("version", "")).strip() == "1" and extra.get("confirm") in ("1", "on")
        assert m.games == (2, 0, 0) or answered, (result, extra, m.games)
        assert_valid_stored(m, event.best_of)
