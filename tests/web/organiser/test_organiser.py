"""Organiser and judge pages: happy paths, side effects, who may do what, verbs, CSRF, repeats."""

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import Event, EventLog, EventRole, Match, Player, Report, ResultChange, Round
from tournament.snapshot import create_matches

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def jc(judge):
    c = Client()
    c.force_login(judge)
    return c


@pytest.fixture
def oc(outsider):
    c = Client()
    c.force_login(outsider)
    return c


def published_round(event, number=1, state=Round.State.PAIRED):
    """A round paired by hand (A v B, C v D, …) for tests that are about results, not pairing."""
    rnd = Round.objects.create(event=event, number=number, state=state, seed=1)
    players = list(event.players.order_by("name"))
    create_matches(
        rnd,
        [
            Match(round=rnd, table=i // 2 + 1, player_a=players[i], player_b=players[i + 1])
            for i in range(0, len(players) - 1, 2)
        ],
    )
    return rnd


def url(name, event, *args):
    return reverse(name, args=[event.slug, *args])


# Every organiser URL with a verb and whether a judge may use it.
def all_urls(event, rnd, match, player, role):
    return [
        ("get", url("org_event", event), True),
        ("get", url("org_settings", event), False),
        ("post", url("org_settings", event), False),
        ("post", url("org_staff_add", event), False),
        ("post", url("org_staff_remove", event, role.pk), False),
        ("get", url("org_players", event), True),
        ("post", url("org_player_add", event), False),
        ("post", url("org_players_paste", event), False),
        ("post", url("org_players_csv", event), False),
        ("post", url("org_players_csv_confirm", event), False),
        ("get", url("org_player_edit", event, player.pk), False),
        ("post", url("org_player_drop", event, player.pk), False),
        ("post", url("org_player_delete", event, player.pk), False),
        ("get", url("org_player_drop", event, player.pk), False),
        ("get", url("org_player_delete", event, player.pk), False),
        ("post", url("org_player_undrop", event, player.pk), False),
        ("post", url("org_round_pair", event), False),
        ("get", url("org_round", event, rnd.number), True),
        ("post", url("org_round_publish", event, rnd.number), False),
        ("post", url("org_round_repair", event, rnd.number), False),
        ("post", url("org_round_swap", event, rnd.number), False),
        ("post", url("org_round_clock", event, rnd.number), True),
        ("post", url("org_table_result", event, rnd.number), True),
        ("get", url("org_match", event, rnd.number, match.pk), True),
        ("post", url("org_match_result", event, rnd.number, match.pk), True),
        ("get", url("org_top_cut", event), True),
        ("post", url("org_top_cut_start", event), False),
        ("get", url("org_standings", event), True),
        ("get", url("org_print_by_name", event, rnd.number), True),
        ("get", url("org_print_by_table", event, rnd.number), True),
        ("get", url("org_print_slips", event, rnd.number), True),
        ("get", url("org_print_standings", event), True),
        ("get", url("org_export_json", event), True),
        ("get", url("org_export_players", event), True),
        ("get", url("org_export_pairings", event), True),
        ("get", url("org_export_standings", event), True),
    ]


@pytest.fixture
def everything(event, organiser):
    rnd = published_round(event)
    return all_urls(
        event, rnd, rnd.matches.first(), event.players.first(), EventRole.objects.get(event=event, user=organiser)
    )


def test_outsider_gets_404_on_every_organiser_url_including_fragments(oc, everything):
    for verb, u, _ in everything:
        assert getattr(oc, verb)(u).status_code == 404, u
        assert getattr(oc, verb)(u, headers={"HX-Request": "true"}).status_code == 404, u


def test_anonymous_is_sent_to_login(client, everything):
    for verb, u, _ in everything:
        r = getattr(client, verb)(u)
        assert r.status_code == 302 and r["Location"].startswith("/login/"), u


def test_judge_gets_403_on_organiser_only_urls(jc, everything):
    for verb, u, judge_ok in everything:
        status = getattr(jc, verb)(u).status_code
        if judge_ok:
            assert status in (200, 302), u
        else:
            assert status == 403, u


def test_wrong_verb_is_405(org, everything):
    # Pages that show a form or a confirmation on GET and act on POST.
    forms = {
        u
        for verb, u, _ in everything
        if u.endswith(("/settings/", "/drop/", "/delete/", "/repair/")) or u.rstrip("/").split("/")[-1].isdigit()
    }
    for verb, u, _ in everything:
        wrong = "delete" if u in forms else ("post" if verb == "get" else "get")
        assert getattr(org, wrong)(u).status_code == 405, u


def test_csrf_is_enforced_on_every_post(organiser, event, everything):
    c = Client(enforce_csrf_checks=True)
    c.force_login(organiser)
    v = Event.objects.get().version
    for verb, u, _ in everything:
        if verb == "post" or u.endswith("/settings/"):
            assert c.post(u, {"name": "Mallory"}, headers={"HX-Request": "true"}).status_code == 403, u
    assert not Player.objects.filter(name="Mallory").exists()
    assert Event.objects.get().version == v


def test_event_list_shows_own_events_only(org, event):
    Event.objects.create(slug="other", name="Someone else's")
    r = org.get("/")
    assert r.status_code == 200
    assert b"Friday Night" in r.content and b"Someone else" not in r.content


def test_create_event_makes_creator_organiser_with_preset(org, organiser):
    r = org.post(
        reverse("org_event_new"),
        {
            "name": "Pokémon Cup",
            "date": "2026-11-21",
            "preset": "pokemon",
            "planned_rounds": 4,
            "top_cut": 4,
            "round_minutes": 50,
        },
    )
    event = Event.objects.get(name="Pokémon Cup")
    assert r.status_code == 302 and r["Location"] == url("org_players", event)
    assert event.tiebreakers == ["omw", "oomw", "head_to_head"] and event.floor == "1/4"
    assert EventRole.objects.get(event=event).user == organiser


def test_create_event_keeps_input_on_error(org):
    r = org.post(
        reverse("org_event_new"),
        {"name": "Typed name", "date": "2026-11-21", "preset": "mtg", "top_cut": 3, "round_minutes": 50},
    )
    assert r.status_code == 200 and b"Typed name" in r.content and b"power of two" in r.content
    assert not Event.objects.filter(name="Typed name").exists()


def settings_data(event, **over):
    data = {
        "name": event.name,
        "date": event.date.isoformat(),
        "public": "on",
        "language": event.language,
        "planned_rounds": 3,
        "top_cut": 4,
        "round_minutes": 50,
        "round_one": "random",
        "late_entry": "none",
        "bye_rating": 0,
        "preset": event.preset,
        "win_points": "3",
        "draw_points": "1",
        "loss_points": "0",
        "best_of": 3,
        "floor": "33/100",
        "tiebreakers": list(event.tiebreakers),
        "save": "1",
    }
    data.update(over)
    return data


def test_settings_save_and_reorder_tiebreakers(org, event):
    # Moving a tie-breaker re-renders the form without saving.
    r = org.post(url("org_settings", event), settings_data(event, tb_up="1", save=None) | {"save": ""})
    assert r.status_code == 200
    event.refresh_from_db()
    assert event.tiebreakers == ["omw", "gw", "ogw"]
    r = org.post(url("org_settings", event), settings_data(event, tiebreakers=["gw", "omw", "ogw"], top_cut=4))
    assert r.status_code == 302
    event.refresh_from_db()
    assert event.tiebreakers == ["gw", "omw", "ogw"] and event.top_cut == 4


def test_tiebreaker_move_answers_htmx_with_the_form_only(org, event):
    data = settings_data(event, tb_up="1")
    del data["save"]
    r = org.post(url("org_settings", event), data, headers={"HX-Request": "true"})
    assert r.status_code == 200 and b"<html" not in r.content
    body = r.content.decode()
    assert body.index('value="gw"') < body.index('value="omw"')


def test_scoring_locks_after_pairing_unless_confirmed(org, event, organiser):
    published_round(event)
    r = org.post(url("org_settings", event), settings_data(event, win_points="2"))
    assert r.status_code == 200 and b"Tick to confirm" in r.content
    event.refresh_from_db()
    assert event.win_points == "3"
    r = org.post(url("org_settings", event), settings_data(event, win_points="2", confirm_locked="on"))
    assert r.status_code == 302
    event.refresh_from_db()
    assert event.win_points == "2"
    entry = EventLog.objects.get(event=event, action="settings_after_pairing")
    assert entry.by == organiser and entry.detail["fields"] == ["win_points"]


def test_add_judge_by_username(org, event, outsider, client):
    """An invitation: the role is otto's once otto comes (tests/web/organiser/test_staff.py has the whole story)."""
    r = org.post(url("org_staff_add", event), {"username": "otto", "role": "judge"})
    assert r.status_code == 302
    org.post(url("org_staff_add", event), {"username": "otto", "role": "judge"})  # twice: harmless
    r = org.post(url("org_staff_add", event), {"username": "nobody", "role": "judge"}, follow=True)
    assert b"nobody is invited as judge" in r.content
    client.force_login(outsider)
    client.get(reverse("event_list"))
    assert EventRole.objects.get(event=event, user=outsider).role == "judge"
    assert EventRole.objects.filter(event=event, user=outsider).count() == 1


def test_quick_add_via_htmx_answers_with_its_line_and_the_roster_out_of_band(org, event):
    v = event.version
    r = org.post(url("org_player_add", event), {"name": "Zed Zulu, 1700"}, headers={"HX-Request": "true"})
    assert r.status_code == 200
    body = r.content.decode()
    assert body.lstrip().startswith('<li class="entry stored">') and "Added Zed Zulu (#9, 1700)." in body
    # The roster follows out of band; the box being typed in is not part of the answer.
    assert '<div id="roster" hx-swap-oob="true">' in body and "<html" not in body and 'id="id_name"' not in body
    p = Player.objects.get(name="Zed Zulu")
    assert p.rating == 1700 and p.joined_round == 1
    event.refresh_from_db()
    assert event.version > v


def test_quick_add_error_keeps_typed_text(org, event):
    r = org.post(url("org_player_add", event), {"name": "Bob, -5"}, headers={"HX-Request": "true"})
    assert r.status_code == 200 and b"rating -5 cannot be negative" in r.content and b"Bob, -5" in r.content


def test_duplicate_name_is_warned(org, event):
    r = org.post(url("org_player_add", event), {"name": "player a"}, follow=True)
    assert b"already a player called" in r.content
    assert b"same name" in r.content


def test_paste_adds_every_line(org, event):
    r = org.post(url("org_players_paste", event), {"lines": "Ann, 1600\n\nBen\n  Cat  Dee , 1200\n"})
    assert r.status_code == 302
    assert {p.name: p.rating for p in event.players.filter(name__in=["Ann", "Ben", "Cat Dee"])} == {
        "Ann": 1600,
        "Ben": None,
        "Cat Dee": 1200,
    }


def test_paste_with_a_bad_line_adds_nothing_and_keeps_text(org, event):
    n = event.players.count()
    r = org.post(url("org_players_paste", event), {"lines": "Ann, 1600\nBen, 12.5"})
    assert r.status_code == 200 and b"Ben, 12.5" in r.content
    assert "Line 2 (Ben, 12.5): rating 12.5 must be a whole number" in r.content.decode()
    assert event.players.count() == n


def test_csv_preview_then_confirm(org, event):
    from django.core.files.uploadedfile import SimpleUploadedFile

    text = "name,rating,id,byes\nAnn,1600,X1,1\n,1500,,\nBen,abc,,\n=cmd,1000,,0\n"
    r = org.post(url("org_players_csv", event), {"file": SimpleUploadedFile("p.csv", text.encode())})
    assert r.status_code == 200 and b"no name" in r.content and "rating “abc” is not a number" in r.content.decode()
    assert not event.players.filter(name="Ann").exists()  # nothing until confirmed
    assert b"Nothing is imported from a file with a bad row" in r.content and b"Import " not in r.content
    # A confirm posted anyway (a stale tab) writes nothing and names the first bad line.
    n = event.players.count()
    r = org.post(url("org_players_csv_confirm", event), {"text": text}, follow=True)
    assert event.players.count() == n
    assert "Nothing was imported: line 3: no name (and 1 more bad line)" in r.content.decode()
    fixed = "name,rating,id,byes\nAnn,1600,X1,1\n=cmd,1000,,0\n"
    r = org.post(url("org_players_csv", event), {"file": SimpleUploadedFile("p.csv", fixed.encode())})
    assert b"Import 2 players" in r.content
    r = org.post(url("org_players_csv_confirm", event), {"text": fixed})
    assert r.status_code == 302
    ann = event.players.get(name="Ann")
    assert (ann.rating, ann.external_id, ann.byes) == (1600, "X1", 1)
    assert event.players.filter(name="=cmd").exists()


def test_edit_player_sets_byes_and_fixed_table(org, event):
    p = event.players.first()
    r = org.post(url("org_player_edit", event, p.pk), {"name": p.name, "rating": 1400, "byes": 2, "fixed_table": 7})
    assert r.status_code == 302
    p.refresh_from_db()
    assert (p.byes, p.fixed_table, p.rating) == (2, 7, 1400)
    r = org.post(url("org_player_edit", event, p.pk), {"name": p.name, "byes": 5})
    assert r.status_code == 200 and b"At most 3" in r.content


def test_drop_and_undrop(org, event):
    published_round(event)
    p = event.players.first()
    org.post(url("org_player_drop", event, p.pk))
    org.post(url("org_player_drop", event, p.pk))  # twice: harmless
    p.refresh_from_db()
    assert p.dropped_after == 1
    org.post(url("org_player_undrop", event, p.pk))
    p.refresh_from_db()
    assert p.dropped_after is None


def test_late_entry_with_losses_policy(org, event):
    event.late_entry = "losses"
    event.save(update_fields=["late_entry"])
    published_round(event, 1, Round.State.COMPLETE)
    published_round(event, 2)
    org.post(url("org_player_add", event), {"name": "Latecomer"})
    late = event.players.get(name="Latecomer")
    assert late.joined_round == 3
    losses = Match.objects.filter(player_a=late)
    assert sorted(m.round.number for m in losses) == [1, 2]
    assert all(m.result == "loss" and m.player_b is None for m in losses)


def test_late_entry_without_losses(org, event):
    published_round(event)
    org.post(url("org_player_add", event), {"name": "Latecomer"})
    late = event.players.get(name="Latecomer")
    assert late.joined_round == 2 and not Match.objects.filter(player_a=late).exists()


def test_draft_rounds_are_not_late_entries(org, event):
    published_round(event, 1, Round.State.DRAFT)
    org.post(url("org_player_add", event), {"name": "Early"})
    assert event.players.get(name="Early").joined_round == 1


# ---------------------------------------------------------------- results


def test_result_button_updates_row_in_place(jc, event, judge):
    rnd = published_round(event)
    m = rnd.matches.get(table=1)
    r = jc.post(
        url("org_match_result", event, 1, m.pk), {"result": "2-1", "version": m.version}, headers={"HX-Request": "true"}
    )
    assert r.status_code == 200
    body = r.content.decode()
    assert body.lstrip().startswith(f'<tr id="m-{m.pk}"') and "2-1" in body
    assert 'id="round-status" hx-swap-oob="true"' in body and "3 results outstanding" in body
    m.refresh_from_db()
    assert m.games == (2, 1, 0) and m.entered_by == judge and m.version == 1
    rnd.refresh_from_db()
    assert rnd.state == Round.State.IN_PROGRESS


def test_same_result_twice_is_harmless(jc, event):
    rnd = published_round(event)
    m = rnd.matches.get(table=1)
    for _ in range(2):
        r = jc.post(
            url("org_match_result", event, 1, m.pk), {"result": "2-0", "version": 0}, headers={"HX-Request": "true"}
        )
        assert r.status_code == 200 and b"Replace" not in r.content
    m.refresh_from_db()
    assert m.version == 1 and ResultChange.objects.filter(match=m).count() == 1


def test_stale_version_with_other_result_is_a_conflict(jc, event):
    rnd = published_round(event)
    m = rnd.matches.get(table=1)
    jc.post(url("org_match_result", event, 1, m.pk), {"result": "2-0", "version": 0})
    r = jc.post(
        url("org_match_result", event, 1, m.pk), {"result": "0-2", "version": 0}, headers={"HX-Request": "true"}
    )
    assert b"was changed to 2-0 by you since this page was shown" in r.content
    m.refresh_from_db()
    assert m.games == (2, 0, 0)


def test_invalid_result_is_refused_with_message(jc, event):
    rnd = published_round(event)
    m = rnd.matches.get(table=1)
    r = jc.post(
        url("org_match_result", event, 1, m.pk), {"result": "3-0", "version": 0}, headers={"HX-Request": "true"}
    )
    assert r.status_code == 200 and b"nobody wins more than 2" in r.content
    m.refresh_from_db()
    assert m.games is None


def test_keyboard_path_table_then_result(jc, event):
    rnd = published_round(event)
    r = jc.post(url("org_table_result", event, 1), {"table": 3, "result": "21"}, headers={"HX-Request": "true"})
    body = r.content.decode()
    # The entry's line in the desk's running list, and the row and counts out of band: never the form.
    assert r.status_code == 200 and 'id="table-form"' not in body and "hx-swap-oob" in body
    assert '<li class="entry stored">' in body and 'T3</strong> <span class="entry-result">2-1</span>' in body
    assert rnd.matches.get(table=3).games == (2, 1, 0)
    r = jc.post(url("org_table_result", event, 1), {"table": 99, "result": "20"}, headers={"HX-Request": "true"})
    assert b"no table 99" in r.content and b'<li class="entry refused">' in r.content and b"T99</strong>" in r.content


def test_filter_shows_only_outstanding(jc, event):
    rnd = published_round(event)
    done = rnd.matches.get(table=1)
    jc.post(url("org_match_result", event, 1, done.pk), {"result": "2-0", "version": 0})
    r = jc.get(url("org_round", event, 1) + "?outstanding=1", headers={"HX-Request": "true"})
    body = r.content.decode()
    assert 'id="matches"' in body and f'id="m-{done.pk}"' not in body and body.count('class="match') == 3


def test_correcting_an_earlier_round_needs_confirmation_and_is_audited(org, event, organiser):
    r1 = published_round(event, 1)
    m = r1.matches.get(table=1)
    org.post(url("org_match_result", event, 1, m.pk), {"result": "2-0", "version": 0})
    for t in range(2, 5):
        mm = r1.matches.get(table=t)
        org.post(url("org_match_result", event, 1, mm.pk), {"result": "2-1", "version": 0})
    r1.refresh_from_db()
    assert r1.state == Round.State.COMPLETE
    r2 = published_round(event, 2)
    pairings_before = list(r2.matches.values_list("player_a", "player_b"))
    data = {"games_a": 0, "games_b": 2, "games_drawn": 0, "version": 1}
    r = org.post(url("org_match", event, 1, m.pk), data)
    assert r.status_code == 200 and b"already has 2-0, entered by you. Replace it with 0-2?" in r.content
    m.refresh_from_db()
    assert m.games == (2, 0, 0)
    r = org.post(url("org_match", event, 1, m.pk), data | {"confirm": "1"})
    assert r.status_code == 302
    m.refresh_from_db()
    assert m.games == (0, 2, 0)
    change = ResultChange.objects.filter(match=m).first()
    assert change.by == organiser and change.before["games"] == [2, 0, 0] and change.after["games"] == [0, 2, 0]
    assert list(r2.matches.values_list("player_a", "player_b")) == pairings_before
    page = org.get(url("org_standings", event)).content.decode()
    assert page.index(m.player_b.name) < page.index(m.player_a.name)


def test_double_loss_via_other(jc, event):
    rnd = published_round(event)
    m = rnd.matches.get(table=2)
    r = jc.post(url("org_match", event, 1, m.pk), {"double_loss": "on", "version": 0})
    assert r.status_code == 302
    m.refresh_from_db()
    assert m.result == "double_loss"


def test_clock_start_pause_resume_add(jc, event):
    rnd = published_round(event)
    c = url("org_round_clock", event, 1)
    jc.post(c, {"action": "start"})
    rnd.refresh_from_db()
    assert rnd.clock_started and rnd.state == Round.State.IN_PROGRESS and rnd.seconds_left() > 49 * 60
    jc.post(c, {"action": "pause"})
    jc.post(c, {"action": "pause"})  # twice: harmless
    rnd.refresh_from_db()
    assert rnd.clock_paused_at
    jc.post(c, {"action": "resume"})
    jc.post(c, {"action": "add", "minutes": 5})
    rnd.refresh_from_db()
    assert rnd.clock_paused_at is None and rnd.clock_minutes == 55
    r = jc.get(url("org_players", event))
    assert b'class="clock" data-seconds-left=' in r.content  # visible on every organiser page


def test_pairing_refused_while_results_missing(org, event):
    published_round(event)
    r = org.post(url("org_round_pair", event), follow=True)
    assert b"still has 4 results missing" in r.content
    assert event.rounds.count() == 1


def test_publish_makes_round_public_and_is_idempotent(org, event):
    rnd = published_round(event, 1, Round.State.DRAFT)
    v = Event.objects.get().version
    org.post(url("org_round_publish", event, 1))
    org.post(url("org_round_publish", event, 1))
    rnd.refresh_from_db()
    assert rnd.state == Round.State.PAIRED
    assert Event.objects.get().version == v + 1
    assert EventLog.objects.filter(action="publish").count() == 1


def test_swap_flags_rematch(org, event):
    r1 = published_round(event, 1, Round.State.COMPLETE)
    first = r1.matches.get(table=1)
    r2 = Round.objects.create(event=event, number=2, state=Round.State.DRAFT)
    a, b = first.player_a, first.player_b
    others = list(event.players.exclude(pk__in=[a.pk, b.pk]).order_by("name"))
    create_matches(
        r2,
        [
            Match(round=r2, table=1, player_a=a, player_b=others[0]),
            Match(round=r2, table=2, player_a=b, player_b=others[1]),
        ]
        + [Match(round=r2, table=3 + i // 2, player_a=others[i], player_b=others[i + 1]) for i in range(2, 6, 2)],
    )
    r = org.post(url("org_round_swap", event, 2), {"first": others[0].pk, "second": b.pk}, follow=True)
    assert b"Rematch" in r.content
    assert r2.matches.get(table=1).player_b == b
    assert r2.seats.count() == 8


def test_print_pages_and_exports(jc, event):
    rnd = published_round(event)
    jc.post(url("org_match_result", event, 1, rnd.matches.get(table=1).pk), {"result": "2-0", "version": 0})
    by_name = jc.get(url("org_print_by_name", event, 1)).content.decode()
    names = [p.name for p in event.players.all()]
    assert [by_name.index(n) for n in sorted(names)] == sorted(by_name.index(n) for n in names)
    assert b"<script" not in jc.get(url("org_print_slips", event, 1)).content
    assert jc.get(url("org_print_slips", event, 1)).content.count(b'class="slip"') == 4
    assert jc.get(url("org_print_by_table", event, 1)).status_code == 200
    assert jc.get(url("org_print_standings", event)).status_code == 200
    doc = jc.get(url("org_export_json", event)).json()
    assert doc["format"] == "swiss-event" and len(doc["players"]) == 8
    assert jc.get(url("org_export_players", event)).content.startswith("\ufeffnumber,name,reading,rating".encode())
    assert b"Player A" in jc.get(url("org_export_pairings", event) + "?round=1").content
    assert jc.get(url("org_export_standings", event)).content.startswith("\ufeffrank,number,name".encode())


def test_pair_button_twice_pairs_once(org, event):
    r = org.post(url("org_round_pair", event))
    assert r.status_code == 302 and r["Location"] == url("org_round", event, 1)
    r = org.post(url("org_round_pair", event), follow=True)
    assert b"still a draft" in r.content
    assert event.rounds.count() == 1 and Match.objects.count() == 4


def test_draft_page_then_publish_via_htmx_redirects_client(org, event):
    org.post(url("org_round_pair", event))
    page = org.get(url("org_round", event, 1)).content.decode()
    assert "draft — not public yet" in page and "Publish round 1" in page
    r = org.post(url("org_round_publish", event, 1), headers={"HX-Request": "true"})
    assert r.status_code == 200 and r["HX-Redirect"] == url("org_round", event, 1)


def test_csv_confirm_twice_imports_once(org, event):
    text = "Ann,1600\nBen,1500\n"
    org.post(url("org_players_csv_confirm", event), {"text": text})
    r = org.post(url("org_players_csv_confirm", event), {"text": text}, follow=True)
    assert b"imported already" in r.content
    assert event.players.filter(name__in=["Ann", "Ben"]).count() == 2


def test_top_cut_page_and_start(org, event):
    event.top_cut = 4
    event.save(update_fields=["top_cut"])
    published_round(event, 1, Round.State.PAIRED)
    for m in Match.objects.all():
        org.post(url("org_match_result", event, 1, m.pk), {"result": "2-0", "version": 0})
    page = org.get(url("org_top_cut", event)).content.decode()
    assert "The bracket if you start now" in page and "Pair the top 4 as a draft" in page
    r = org.post(url("org_top_cut_start", event), follow=True)
    assert b"Semifinals" in r.content and b"paired as a draft" in r.content
    org.post(url("org_top_cut_start", event))  # twice: harmless
    assert Round.objects.filter(kind=Round.Kind.ELIMINATION).count() == 1
    org.post(url("org_top_cut_publish", event))
    semi = Match.objects.filter(round__kind=Round.Kind.ELIMINATION).first()
    r = org.post(
        url("org_match_result", event, 2, semi.pk),
        {"result": "1-1", "version": 0, "confirm": "1", "next": url("org_top_cut", event)},
    )
    assert r["Location"] == url("org_top_cut", event)
    semi.refresh_from_db()
    assert semi.games is None


def test_changing_preset_takes_its_scoring(org, event):
    r = org.post(url("org_settings", event), settings_data(event, preset="chess"))
    assert r.status_code == 302
    event.refresh_from_db()
    assert (event.win_points, event.draw_points, event.best_of) == ("1", "1/2", 1)
    assert event.tiebreakers[0] == "BH-C1"  # the chess preset ranks by FIDE C.07


def test_judge_sees_no_organiser_controls(jc, event):
    published_round(event)
    players_page = jc.get(url("org_players", event)).content.decode()
    assert "Add a player" not in players_page and "Drop" not in players_page
    round_page = jc.get(url("org_round", event, 1)).content.decode()
    assert "Re-pair" not in round_page and "2-0" in round_page and "Settings" not in round_page


def test_remove_staff(org, event, judge, organiser):
    role = EventRole.objects.get(event=event, user=judge)
    assert org.post(url("org_staff_remove", event, role.pk)).status_code == 302
    assert not EventRole.objects.filter(pk=role.pk).exists()
    assert org.post(url("org_staff_remove", event, role.pk)).status_code == 404  # twice: nothing left to remove
    own = EventRole.objects.get(event=event, user=organiser)
    org.post(url("org_staff_remove", event, own.pk))
    assert EventRole.objects.filter(pk=own.pk).exists()


def test_repair_via_http(org, event):
    org.post(url("org_round_pair", event))
    org.post(url("org_round_publish", event, 1))
    seed = Round.objects.get().seed
    r = org.post(url("org_round_repair", event, 1), {"confirm": "1"}, follow=True)
    assert b"paired again as a draft" in r.content
    rnd = Round.objects.get()
    assert rnd.state == Round.State.DRAFT and rnd.matches.count() == 4 and rnd.seats.count() == 8
    assert rnd.seed != seed  # a new random seed (equal by chance once in 2**31)
    assert EventLog.objects.filter(action="repair").count() == 1


def test_re_pairing_a_published_round_asks_first_and_says_what_is_lost(org, event):
    """One click on "Re-pair this round" threw away a published round. Now the round page links to a question (no
    script needed) saying what goes; only a POST that confirms re-pairs, and one without (an old page's
    one-click button) changes nothing and shows the question."""
    org.post(url("org_round_pair", event))
    org.post(url("org_round_publish", event, 1))
    rnd = Round.objects.get()
    table_1 = rnd.matches.get(table=1)
    Report.objects.create(match=table_1, player=table_1.player_a, games_a=2, games_b=0, games_drawn=0)
    pairings = sorted(rnd.matches.values_list("table", "player_a", "player_b"))
    repair = url("org_round_repair", event, 1)
    round_page = org.get(url("org_round", event, 1)).content.decode()
    assert f'<a class="button danger" href="{repair}">Re-pair this round…</a>' in round_page

    for asked in (org.get(repair), org.post(repair), org.post(repair, {"confirm": "yes please"})):
        body = asked.content.decode()
        assert asked.status_code == 200 and "<h1>Re-pair round 1?</h1>" in body
        assert "the published pairings (4 tables), which players may already have seen" in body
        assert "0 results already entered;" in body and "1 report from players’ phones." in body
        assert '<input type="hidden" name="confirm" value="1">' in body and "Yes, re-pair round 1" in body
    same = Round.objects.get()
    assert (same.pk, same.state, same.seed) == (rnd.pk, Round.State.PAIRED, rnd.seed)
    assert sorted(same.matches.values_list("table", "player_a", "player_b")) == pairings
    assert Report.objects.filter(match=table_1).exists() and not EventLog.objects.filter(action="repair").exists()

    done = org.post(repair, {"confirm": "1"}, follow=True)
    assert "Round 1 is paired again as a draft." in done.content.decode()
    new = Round.objects.get()
    assert new.pk != rnd.pk and new.state == Round.State.DRAFT and new.seed != rnd.seed
    assert not Report.objects.exists() and EventLog.objects.filter(action="repair").count() == 1


def test_re_pairing_asks_nothing_of_a_draft_and_refuses_a_round_with_results(org, event):
    org.post(url("org_round_pair", event))
    draft = Round.objects.get()
    assert org.post(url("org_round_repair", event, 1)).status_code == 302  # the draft page's "Pair again"
    assert Round.objects.get().pk != draft.pk
    org.post(url("org_round_publish", event, 1))
    Match.objects.filter(table=2).update(games_a=2, games_b=1, games_drawn=0)
    asked = org.get(url("org_round_repair", event, 1)).content.decode()
    assert "Round 1 already has results; it can no longer be re-paired." in asked and 'name="confirm"' not in asked
    org.post(url("org_round_repair", event, 1), {"confirm": "1"})
    assert Round.objects.get().state == Round.State.PAIRED


def test_event_home_shows_next_step(jc, event):
    page = jc.get(url("org_event", event)).content.decode()
    assert "Next step" in page and "8 active players" in page
    assert "Pair round 1" not in page  # judges do not pair


def test_next_parameter_stays_on_site(org, event):
    p = event.players.first()
    r = org.post(url("org_player_drop", event, p.pk), {"next": "https://evil.example/"})
    assert r["Location"] == url("org_players", event)
    r = org.post(url("org_player_undrop", event, p.pk))
    published_round(event)
    r = org.post(url("org_round_clock", event, 1), {"action": "start", "next": url("org_event", event)})
    assert r["Location"] == url("org_event", event)


def test_double_clicks_are_harmless(org, event):
    """Forms that would do something twice carry a one-time token; the second submission does nothing."""
    n = event.players.count()
    for _ in range(2):
        org.post(url("org_player_add", event), {"name": "Quinn", "once": "t1"}, headers={"HX-Request": "true"})
        org.post(url("org_players_paste", event), {"lines": "Rae\nSol", "once": "t2"})
    assert event.players.count() == n + 3
    for _ in range(2):
        org.post(
            reverse("org_event_new"),
            {"name": "Twice", "date": "2026-11-21", "preset": "mtg", "top_cut": 0, "round_minutes": 50, "once": "t3"},
        )
    assert Event.objects.filter(name="Twice").count() == 1
    rnd = published_round(event)
    c = url("org_round_clock", event, 1)
    org.post(c, {"action": "start", "once": "t4"})
    for _ in range(2):
        org.post(c, {"action": "add", "minutes": 5, "once": "t5"})
    rnd.refresh_from_db()
    assert rnd.clock_minutes == 55
    started = rnd.clock_started
    org.post(c, {"action": "start", "once": "t6"})  # Start again without a token: still not a reset
    rnd.refresh_from_db()
    assert rnd.clock_started == started
    org.post(c, {"action": "restart", "once": "t7"})
    rnd.refresh_from_db()
    assert rnd.clock_started > started and rnd.clock_minutes == 50


def test_settings_error_via_htmx_returns_the_form_only(org, event):
    r = org.post(url("org_settings", event), settings_data(event, top_cut=3), headers={"HX-Request": "true"})
    body = r.content.decode()
    assert r.status_code == 200 and "<html" not in body and 'id="settings-form"' in body and "power of two" in body
    r = org.post(url("org_settings", event), settings_data(event, top_cut=8), headers={"HX-Request": "true"})
    assert r["HX-Redirect"] == url("org_settings", event)


def test_reordering_tiebreakers_after_pairing_needs_confirmation(org, event):
    published_round(event)
    r = org.post(url("org_settings", event), settings_data(event, tiebreakers=["gw", "omw", "ogw"]))
    assert r.status_code == 200 and b"Tick to confirm" in r.content
    event.refresh_from_db()
    assert event.tiebreakers == ["omw", "gw", "ogw"]
