"""What the organiser reads: recent actions as sentences, the recommendation in plain
words, the Tables column without the bye, best-of on the New event form, the late entrant's bye explained in
the draft, and the standings CSV marking drops and top-cut placings."""

import csv
import io

import pytest
from django.urls import reverse

from tournament.models import Event, EventRole, Match, Player, Round
from tournament.services.locks import changed, log
from tournament.services.results import correct_result, parse_outcome, record_result
from tournament.services.roster import add_player, delete_player, drop_player
from tournament.services.rounds import pair_next_round, publish_round
from tournament.services.top_cut import start_top_cut
from tournament.snapshot import create_matches

pytestmark = pytest.mark.django_db


def url(name, event, *args):
    return reverse(name, args=[event.slug, *args])


@pytest.fixture
def org(client, organiser):
    client.force_login(organiser)
    return client


def played_round(event, number, state=Round.State.COMPLETE, players=None):
    """Players paired in number order, the first of each pair winning 2-0; an odd one out gets the bye."""
    rnd = Round.objects.create(event=event, number=number, state=state, seed=1)
    ps = players or list(event.players.filter(dropped_after__isnull=True).order_by("number"))
    matches = [
        Match(round=rnd, table=i // 2 + 1, player_a=ps[i], player_b=ps[i + 1], games_a=2, games_b=0, games_drawn=0)
        for i in range(0, len(ps) - 1, 2)
    ]
    if len(ps) % 2:
        matches.append(Match(round=rnd, player_a=ps[-1], result=Match.Result.BYE))
    create_matches(rnd, matches)
    return rnd


def test_recent_actions_are_sentences_with_names(org, event, organiser):
    rnd = played_round(event, 1, state=Round.State.IN_PROGRESS)
    dan = event.players.get(name="Player D")
    log(event, "publish", organiser, round=1)
    match = rnd.matches.get(table=1)
    correct_result(match, parse_outcome("0-2", event.best_of), organiser, match.version)
    drop_player(dan, organiser)
    gone = add_player(event, organiser, name="Mistake")[0]
    delete_player(gone, organiser)
    log(event, "top_cut", organiser, size=4, seeds=[])
    log(event, "settings_after_pairing", organiser, fields=["best_of", "tiebreakers"])
    html = org.get(url("org_event", event)).content.decode()
    section = html[html.index("Recent actions") :]
    for sentence in (
        "Published round 1.",
        "Corrected the result of table 1 in round 1 (Player A v Player B).",
        "Player D dropped after round 1.",
        "Deleted the registration of Mistake.",
        "Started the top 4.",
        "Changed games per match, the tie-breakers after rounds were paired.",
    ):
        assert sentence in section, sentence
    for code in ("correct_result", "top_cut", "delete_player", "settings_after_pairing"):
        assert code not in section


def test_a_drop_logged_before_names_were_kept_is_named_from_the_roster(org, event, organiser):
    p = event.players.get(name="Player E")
    log(event, "drop", organiser, player=p.key, after_round=0)
    assert "Player E dropped before round 1." in org.get(url("org_event", event)).content.decode()


def test_the_recommendation_is_plain_words(org, event):
    Player.objects.filter(pk__in=list(event.players.values_list("pk", flat=True)[:2])).update(byes=1)
    changed(event)
    html = org.get(url("org_players", event)).content.decode()
    assert (
        "8 players; 2 of them start with byes, which already count as wins, so the event is sized as for 10 players"
        in html
    )
    assert "2^k" not in html and "Appendix E" not in html
    # Appendix E counts the byes on every row of its chart: sized as 10 players, the event is a 5-round Swiss with a
    # top 4, not the knockout of 8 players or fewer (Magic Tournament Rules effective 10 November 2025).
    assert "Recommended: <strong>5 Swiss rounds and a top 4</strong>" in html
    assert "knockout bracket" not in html


def test_the_tables_column_does_not_count_the_bye(org, event):
    add_player(event, None, name="Ninth")
    played_round(event, 1)
    html = org.get(url("org_event", event)).content.decode()
    rounds = html[html.index("<h2>Rounds</h2>") :]
    row = rounds[rounds.index('href="/events/friday/rounds/1/"') :]
    row = row[: row.index("</tr>")]
    assert '<td class="num">4</td>' in row and '<td class="num">5</td>' not in row


def test_best_of_is_chosen_on_the_new_event_form(org):
    page = org.get(reverse("org_event_new")).content.decode()
    assert "Games per match" in page and "Best of 5" in page
    org.post(
        reverse("org_event_new"),
        {"name": "Bo5", "date": "2026-11-23", "preset": "mtg", "best_of": 5, "top_cut": 0, "round_minutes": 50},
    )
    assert Event.objects.get(name="Bo5").best_of == 5
    org.post(
        reverse("org_event_new"),
        {"name": "Chess", "date": "2026-11-23", "preset": "chess", "top_cut": 0, "round_minutes": 50},
    )
    assert Event.objects.get(name="Chess").best_of == 1  # empty: the preset's
    r = org.post(
        reverse("org_event_new"),
        {"name": "Bad", "date": "2026-11-23", "preset": "mtg", "best_of": 4, "top_cut": 0, "round_minutes": 50},
    )
    assert r.status_code == 200 and not Event.objects.filter(name="Bad").exists()


def test_the_draft_says_the_bye_went_to_a_late_entrant(org, event):
    played_round(event, 1)
    kim = add_player(event, None, name="Kim")[0]
    assert kim.joined_round == 2
    rnd = Round.objects.create(event=event, number=2, state=Round.State.DRAFT, seed=1)
    ps = list(event.players.exclude(pk=kim.pk).order_by("number"))
    create_matches(
        rnd,
        [Match(round=rnd, table=i // 2 + 1, player_a=ps[i], player_b=ps[i + 1]) for i in range(0, 8, 2)]
        + [Match(round=rnd, player_a=kim, result=Match.Result.BYE)],
    )
    html = org.get(url("org_round", event, 2)).content.decode()
    assert (
        "The bye goes to the lowest-ranked player who has not had one: Kim, who entered late "
        "(in round 2, with no record for the rounds before)." in html
    )


def test_the_draft_explains_an_ordinary_bye_and_not_a_pre_awarded_one(org, event):
    event.players.filter(name="Player A").update(byes=1)
    add_player(event, None, name="Ninth")
    pair_next_round(event, None)
    rnd = Round.objects.get(event=event, number=1)
    byes = list(rnd.matches.filter(result=Match.Result.BYE).select_related("player_a"))
    computed = [m.player_a for m in byes if m.player_a.byes < 1]
    html = org.get(url("org_round", event, 1)).content.decode()
    assert html.count("The bye goes to the lowest-ranked") == len(computed)
    assert "lowest-ranked player who has not had one: Player A" not in html


def test_standings_csv_marks_drops_and_top_cut_places(org, event, organiser):
    event.top_cut = 2
    event.save(update_fields=["top_cut"])
    played_round(event, 1)
    event.players.filter(name="Player H").update(dropped_after=1)
    changed(event)
    publish_round(start_top_cut(event, organiser), organiser)  # the bracket starts as a draft
    final = Round.objects.get(event=event, kind=Round.Kind.ELIMINATION).matches.get()
    record_result(final, parse_outcome("0-2", event.best_of), organiser, final.version)
    text = org.get(url("org_export_standings", event)).content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text[1:])))
    by_name = {r["name"]: r for r in rows}
    assert by_name["Player H"]["dropped_after"] == "1" and by_name["Player A"]["dropped_after"] == ""
    winner, finalist = final.player_b.name, final.player_a.name
    assert (by_name[winner]["top_cut_place"], by_name[finalist]["top_cut_place"]) == ("1", "2")
    assert {r["top_cut_place"] for r in rows} == {"1", "2", ""}
    assert [r["number"] for r in rows if r["name"] == "Player B"] == ["2"]


def test_recent_actions_is_organiser_and_judge_only(client, outsider, event):
    client.force_login(outsider)
    assert client.get(url("org_event", event)).status_code == 404
    assert EventRole.objects.filter(event=event).count() == 2
