"""What players report counts only for the pairing it was said of, and only as far as it harms nobody unasked;
a hidden event stays hidden from a phone that knows nobody there."""

import pytest
from django.contrib.admin.sites import site
from django.test import Client
from django.urls import reverse

from tests.web.organiser.test_concurrency import at_once
from tests.web.phone.test_self_report import match_of, phone, player, report
from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Event, Match, Player, Report, Round
from tournament.services import rounds
from tournament.services.locks import changed
from tournament.services.roster import add_player
from tournament.services.rounds import pair_next_round, publish_round, repair_round, swap_players
from tournament.services.top_cut import start_top_cut, undo_top_cut

pytestmark = pytest.mark.django_db

ME = "player:me"


def stamp(match: Match) -> int:
    match.refresh_from_db()
    return match.report_stamp


# ---------------------------------------------------------------- a report belongs to its pairing


def test_a_swap_discards_the_reports_and_a_stale_confirm_is_refused(live, organiser):
    """A (table 1, against C) reports 2-0; the organiser swaps A with E (table 2). A's report was about A v C:
    E's 2-0 now waits for C, and C's Confirm on the page that showed A's report is refused."""
    a, c, e = player(live, "Player A"), player(live, "Player C"), player(live, "Player E")
    table_1 = match_of(live, "Player A")
    pc = phone(c)
    report(phone(a), live, table_1, "2-0")
    seen_by_c = stamp(table_1)
    assert "Player A reported: you lost 0-2." in pc.get(reverse(ME, args=[live.slug])).content.decode()

    swap_players(Round.objects.get(event=live, number=2), a, e, organiser)
    table_1.refresh_from_db()
    assert {table_1.player_a_id, table_1.player_b_id} == {e.pk, c.pk}
    assert not Report.objects.filter(match=table_1).exists() and table_1.report_stamp > seen_by_c

    page = report(phone(e), live, table_1, "2-0").content.decode()
    table_1.refresh_from_db()
    assert "confirms it on their phone" in page and not table_1.has_result  # C was never asked

    page = report(pc, live, table_1, action="confirm", seen=seen_by_c).content.decode()
    table_1.refresh_from_db()
    assert "changed since your page was shown" in page and not table_1.has_result
    # C's page now shows E's report; confirming what it shows stores it.
    assert "Player E reported: you lost 0-2." in pc.get(reverse(ME, args=[live.slug])).content.decode()
    page = report(pc, live, table_1, action="confirm", seen=stamp(table_1)).content.decode()
    table_1.refresh_from_db()
    assert "Result stored" in page and table_1.winner == e


def test_a_stale_confirm_after_a_swap_is_refused_even_with_nobody_reporting_since(live, organiser):
    """B confirms on the page that showed A's report, after the swap took A away: nothing to confirm."""
    a, c, e = player(live, "Player A"), player(live, "Player C"), player(live, "Player E")
    table_1 = match_of(live, "Player A")
    report(phone(a), live, table_1, "2-0")
    seen_by_c = stamp(table_1)
    swap_players(Round.objects.get(event=live, number=2), a, e, organiser)
    report(phone(c), live, table_1, action="confirm", seen=seen_by_c)
    table_1.refresh_from_db()
    assert not table_1.has_result and not Report.objects.filter(match=table_1).exists()


def test_a_report_by_a_player_no_longer_at_the_table_never_counts(live):
    """Whatever changed the pairing, only the reports of the two players who play the match now count: after
    a swap that kept A's report (the exchange alone, as a path that forgot `discard_reports` would), C's
    report that E won 2-0 agrees with A's old "2-0 for side A" word for word, and still stores nothing."""
    a, c, e = player(live, "Player A"), player(live, "Player C"), player(live, "Player E")
    table_1, table_2 = match_of(live, "Player A"), match_of(live, "Player E")
    report(phone(a), live, table_1, "2-0")
    rounds._exchange(table_1, "player_a_id", table_2, "player_a_id")
    table_1.refresh_from_db()
    assert (table_1.player_a_id, table_1.player_b_id) == (e.pk, c.pk)
    assert Report.objects.filter(match=table_1, player=a).exists()
    pc = phone(c)
    assert "reported" not in pc.get(reverse(ME, args=[live.slug])).content.decode()
    page = report(pc, live, table_1, "0-2").content.decode()
    table_1.refresh_from_db()
    assert not table_1.has_result and "confirms it on their phone" in page


def test_the_admins_change_of_a_player_discards_the_reports(live, django_user_model):
    admin_user = django_user_model.objects.create_superuser("root", password="root-pass-1")
    a, g = player(live, "Player A"), player(live, "Player G")
    table_1 = match_of(live, "Player A")
    report(phone(a), live, table_1, "2-0")
    c = Client()
    c.force_login(admin_user)
    url = reverse(f"{site.name}:tournament_match_change", args=[table_1.pk])
    form = {
        "round": table_1.round_id,
        "table": 1,
        "player_a": g.pk,
        "player_b": table_1.player_b_id,
        "result": Match.Result.PLAYED,
        "version": table_1.version,
        "report_stamp": table_1.report_stamp,
    }
    response = c.post(url, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    table_1.refresh_from_db()
    assert table_1.player_a_id == g.pk and not Report.objects.filter(match=table_1).exists()


def test_a_re_pair_and_a_late_entrys_re_pair_leave_no_report_and_stale_pages_report_nothing(live, organiser):
    a = player(live, "Player A")
    old = match_of(live, "Player A")
    report(phone(a), live, old, "2-0")
    add_player(live, organiser, name="Late Lena")
    rnd = repair_round(Round.objects.get(event=live, number=2), organiser)
    assert not Report.objects.filter(match__round__event=live).exists()
    page = report(phone(player(live, "Player C")), live, old, action="confirm", seen=1).content.decode()
    assert "That is not your match" in page
    assert not rnd.matches.exclude(result=Match.Result.BYE).filter(games_a__isnull=False).exists()


def test_undoing_the_top_cut_leaves_no_report(event, organiser):
    """A report on a bracket match that is undone goes with it; the bracket started again has none."""
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    Event.objects.filter(pk=event.pk).update(reporting=Event.Reporting.CONFIRM, top_cut=4)
    event.refresh_from_db()
    bracket = start_top_cut(event, organiser)
    publish_round(bracket, organiser)
    m = bracket.matches.order_by("table").first()
    report(phone(m.player_a), event, m, "2-0")
    assert Report.objects.filter(match=m).exists()
    undo_top_cut(event, organiser)
    again = start_top_cut(event, organiser)
    assert not Report.objects.filter(match__round=again).exists() and not Report.objects.exists()


# ---------------------------------------------------------------- "alone" stores no double loss alone


def test_alone_a_double_loss_waits_for_the_opponent(live):
    Event.objects.filter(pk=live.pk).update(reporting=Event.Reporting.ALONE)
    m = match_of(live, "Player E")
    page = report(phone(player(live, "Player G")), live, m, action="other", other="dl").content.decode()
    m.refresh_from_db()
    assert not m.has_result and "confirms it on their phone" in page
    pe = phone(player(live, "Player E"))
    assert "Player G reported: a double loss." in pe.get(reverse(ME, args=[live.slug])).content.decode()
    page = report(pe, live, m, action="confirm", seen=stamp(m)).content.decode()
    m.refresh_from_db()
    assert m.result == Match.Result.DOUBLE_LOSS and "Result stored" in page


def test_alone_a_double_loss_disputed_goes_to_a_judge(live):
    Event.objects.filter(pk=live.pk).update(reporting=Event.Reporting.ALONE)
    m = match_of(live, "Player E")
    report(phone(player(live, "Player G")), live, m, action="other", other="dl")
    report(phone(player(live, "Player E")), live, m, action="dispute")
    m.refresh_from_db()
    assert not m.has_result and m.reports.filter(disputes=True).count() == 1


# ---------------------------------------------------------------- a hidden event to a stranger's phone


def test_a_hidden_event_answers_a_stranger_as_a_missing_one(live):
    Event.objects.filter(pk=live.pk).update(public=False)
    m = match_of(live, "Player A")
    stranger = Client()
    for slug in (live.slug, "no-such-event"):
        me = stranger.get(reverse(ME, args=[slug]))
        assert me.status_code == 404 and live.name not in me.content.decode()
        sent = stranger.post(reverse("player:report", args=[slug]), {"match": m.pk, "result": "2-0"})
        assert sent.status_code == 404 and live.name not in sent.content.decode()
        link = stranger.get(reverse("player:link", args=[slug, m.player_a_id, "wrong"]))
        assert link.status_code == 404 and live.name not in link.content.decode()
    forgets = [stranger.post(reverse("player:forget", args=[slug])) for slug in (live.slug, "no-such-event")]
    assert [(f.status_code, f["Location"].replace("no-such-event", live.slug)) for f in forgets] == [
        (302, reverse("public:pairings", args=[live.slug]))
    ] * 2
    # The event's own players and its staff still get their pages.
    assert phone(player(live, "Player A")).get(reverse(ME, args=[live.slug])).status_code == 200


def test_not_me_still_forgets_the_player(live):
    pa = phone(player(live, "Player A"))
    pa.post(reverse("player:forget", args=[live.slug]))
    assert "player/code.html" in [t.name for t in pa.get(reverse(ME, args=[live.slug])).templates]


# ---------------------------------------------------------------- a drop while the next round is a draft


def org(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def complete_round_2(event):
    Round.objects.filter(event=event, number=2).update(state=Round.State.COMPLETE)
    Match.objects.filter(round__event=event, round__number=2).update(games_a=2, games_b=0, games_drawn=0)
    changed(event)


def test_a_drop_from_the_phone_during_a_draft_is_shown_and_refuses_publishing(live, organiser):
    complete_round_2(live)
    draft = pair_next_round(live, organiser)
    h = player(live, "Player H")
    phone(h).post(reverse("player:drop", args=[live.slug]), {"confirm": "yes"})
    h.refresh_from_db()
    assert h.dropped_after == 2 and draft.seats.filter(player=h).exists()
    desk = org(organiser)
    page = desk.get(reverse("org_round", args=[live.slug, 3])).content.decode()
    assert "Dropped since this draft was paired:" in page and "Player H" in page.split("Dropped since")[1][:400]
    refused = desk.post(reverse("org_round_publish", args=[live.slug, 3]), follow=True).content.decode()
    draft.refresh_from_db()
    assert draft.state == Round.State.DRAFT
    assert "Dropped after round 3 was paired: Player H. Pair it again before publishing it." in refused
    desk.post(reverse("org_round_repair", args=[live.slug, 3]))
    desk.post(reverse("org_round_publish", args=[live.slug, 3]))
    rnd = Round.objects.get(event=live, number=3)
    assert rnd.state == Round.State.PAIRED and not rnd.seats.filter(player=h).exists()


def test_the_organisers_own_drop_during_a_draft_refuses_publishing_too(live, organiser):
    complete_round_2(live)
    pair_next_round(live, organiser)
    desk = org(organiser)
    h = player(live, "Player H")
    desk.post(reverse("org_player_drop", args=[live.slug, h.pk]))
    desk.post(reverse("org_round_publish", args=[live.slug, 3]))
    assert Round.objects.get(event=live, number=3).state == Round.State.DRAFT


@pytest.mark.django_db(transaction=True)
def test_players_dropping_while_the_round_is_paired_are_never_seated_when_it_is_published(event, organiser):
    """Six phones drop while the organiser pairs round 3 (real simultaneous requests): whichever lands
    first, the round that is published seats none of them."""
    Player.objects.bulk_create(Player(event=event, name=f"Extra {i:02d}") for i in range(8))
    names = sorted(event.players.values_list("name", flat=True))
    pair(event, 1, list(zip(names[0::2], names[1::2], strict=True)), state=Round.State.COMPLETE)
    Match.objects.filter(round__event=event).update(games_a=2, games_b=1, games_drawn=0)
    Event.objects.filter(pk=event.pk).update(reporting=Event.Reporting.CONFIRM)
    changed(event)
    leaving = list(event.players.order_by("pk")[:6])
    phones = [phone(p) for p in leaving]
    desk = org(organiser)
    drop_url = reverse("player:drop", args=[event.slug])
    responses = at_once(
        lambda: desk.post(reverse("org_round_pair", args=[event.slug])),
        *(lambda c=c: c.post(drop_url, {"confirm": "yes"}) for c in phones),
    )
    assert [getattr(r, "status_code", r) for r in responses] == [302] * 7
    assert all(p.dropped_after == 1 for p in Player.objects.filter(pk__in=[p.pk for p in leaving]))
    draft = Round.objects.get(event=event, number=2)
    seated = set(draft.seats.filter(player__in=leaving).values_list("player_id", flat=True))
    desk.post(reverse("org_round_publish", args=[event.slug, 2]))
    draft.refresh_from_db()
    assert draft.state == (Round.State.DRAFT if seated else Round.State.PAIRED)
    if seated:
        desk.post(reverse("org_round_repair", args=[event.slug, 2]))
        desk.post(reverse("org_round_publish", args=[event.slug, 2]))
    published = Round.objects.get(event=event, number=2)
    assert published.state == Round.State.PAIRED
    assert not published.seats.filter(player__in=leaving).exists()
    assert published.seats.count() == event.players.count() - 6
