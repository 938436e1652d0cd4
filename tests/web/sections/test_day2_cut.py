"""Day-2 cuts (docs/sections.md): the cut is made when the round after it is paired, cut players are paired no
more but keep their points and place, pairing that round again makes the same cut, the standings draw the line,
players' phones say what makes Day 2 and then whether they made it, and a top cut seeds from Day 2 only."""

import csv
import io
import re

import pytest
from django.urls import reverse

from tournament.models import Event, EventLog, Match, Player, Round
from tournament.services.cut import fewest_wins, requirement_text
from tournament.services.results import Outcome, record_result
from tournament.services.rounds import pair_next_round, publish_round, repair_round
from tournament.services.standings import event_standings
from tournament.services.top_cut import start_top_cut

pytestmark = pytest.mark.django_db


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def play(event, by, number):
    """Pair round `number`, publish it, and let the first-listed player of every table win 2-0."""
    rnd = pair_next_round(event, by)
    assert rnd.number == number
    publish_round(rnd, by)
    for m in rnd.matches.filter(player_b__isnull=False):
        record_result(m, Outcome("played", (2, 0, 0)), by, m.version)
    return rnd


def cut_event(event, **rule) -> Event:
    Event.objects.filter(pk=event.pk).update(**{"cut_after": 2, "planned_rounds": 3} | rule)
    event.refresh_from_db()
    return event


def points_after(event, after_round):
    return {r.player_id: r.points for r in event_standings(event, after_round=after_round).rows}


def in_round(event, number) -> set[int]:
    rnd = event.rounds.get(number=number)
    return {pk for m in rnd.matches.all() for pk in (m.player_a_id, m.player_b_id) if pk}


def test_the_cut_is_made_when_the_round_after_it_is_paired_and_not_before(event, organiser):
    cut_event(event, cut_points="6")
    play(event, organiser, 1)
    play(event, organiser, 2)
    assert not Player.objects.filter(event=event, cut_after__isnull=False).exists()
    pair_next_round(event, organiser)
    # Eight players, two rounds won by the first-listed: two on 6 points make Day 2, six are cut.
    made = set(Player.objects.filter(event=event, cut_after__isnull=True).values_list("pk", flat=True))
    cut = Player.objects.filter(event=event, cut_after=2)
    assert len(made) == 2 and cut.count() == 6
    assert not cut.filter(dropped_after__isnull=False).exists()  # cut, not dropped
    assert in_round(event, 3) == made
    entry = EventLog.objects.get(event=event, action="day2_cut")
    assert entry.detail == {"round": 2, "made": 2, "cut": 6}


def test_cut_players_are_paired_in_no_later_round_and_keep_their_points(event, organiser):
    cut_event(event, cut_top=4, cut_ties="breakers", planned_rounds=4)
    play(event, organiser, 1)
    play(event, organiser, 2)
    before = points_after(event, 2)
    play(event, organiser, 3)
    play(event, organiser, 4)
    cut = set(Player.objects.filter(event=event, cut_after=2).values_list("pk", flat=True))
    assert len(cut) == 4
    assert not cut & (in_round(event, 3) | in_round(event, 4))
    keys = dict(Player.objects.filter(pk__in=cut).values_list("key", "pk"))
    final = points_after(event, 4)
    assert {k: final[k] for k in keys} == {k: before[k] for k in keys}
    # The later rounds count every round: Day-2 players add to their points at the cut.
    made = [k for k in final if k not in keys]
    assert sum(final[k] for k in made) == sum(before[k] for k in made) + 2 * 2 * 3


def test_top_n_with_ties_by_points_takes_everyone_level_with_the_nth(event, organiser):
    cut_event(event, cut_top=4, cut_ties="points")
    play(event, organiser, 1)
    play(event, organiser, 2)
    pair_next_round(event, organiser)
    # 6, 6, 3, 3, 3, 3, 0, 0: the 4th has 3 points, so all four on 3 make it.
    assert Player.objects.filter(event=event, cut_after__isnull=True).count() == 6


def test_top_n_with_ties_by_breakers_takes_exactly_n(event, organiser):
    cut_event(event, cut_top=4, cut_ties="breakers")
    play(event, organiser, 1)
    play(event, organiser, 2)
    pair_next_round(event, organiser)
    made = Player.objects.filter(event=event, cut_after__isnull=True)
    assert made.count() == 4
    top4 = [r.player_id for r in event_standings(event, after_round=2).rows[:4]]
    assert set(made.values_list("key", flat=True)) == set(top4)


def test_both_rules_take_the_larger_group(event, organiser):
    cut_event(event, cut_points="6", cut_top=4, cut_ties="breakers")
    play(event, organiser, 1)
    play(event, organiser, 2)
    pair_next_round(event, organiser)
    assert Player.objects.filter(event=event, cut_after__isnull=True).count() == 4  # top 4 beats 2 on 6 points


def test_pairing_the_round_again_makes_the_same_cut_from_the_results(event, organiser):
    cut_event(event, cut_points="6")
    play(event, organiser, 1)
    play(event, organiser, 2)
    rnd = pair_next_round(event, organiser)
    cut = set(Player.objects.filter(event=event, cut_after=2).values_list("pk", flat=True))
    again = repair_round(rnd, organiser)
    assert set(Player.objects.filter(event=event, cut_after=2).values_list("pk", flat=True)) == cut
    assert not cut & in_round(event, 3)
    assert again.number == 3
    assert EventLog.objects.filter(event=event, action="day2_cut").count() == 2


def test_a_result_corrected_at_the_cut_is_followed_by_pairing_the_round_again(event, organiser):
    cut_event(event, cut_points="6")
    play(event, organiser, 1)
    rnd2 = play(event, organiser, 2)
    rnd3 = pair_next_round(event, organiser)
    m = rnd2.matches.filter(player_b__isnull=False).order_by("table").first()
    winner, loser = m.player_a, m.player_b
    assert Player.objects.get(pk=loser.pk).cut_after == 2
    record_result(m, Outcome("played", (0, 2, 0)), organiser, m.version, replace=True)
    repair_round(rnd3, organiser)
    assert Player.objects.get(pk=winner.pk).cut_after is None or Player.objects.get(pk=loser.pk).cut_after is None
    assert Player.objects.filter(event=event, cut_after__isnull=True).count() == 2


def test_the_standings_draw_the_line_with_day_2_first(client, event, organiser):
    cut_event(event, cut_points="6")
    play(event, organiser, 1)
    play(event, organiser, 2)
    play(event, organiser, 3)
    result = event_standings(event)
    cut = set(Player.objects.filter(event=event, cut_after=2).values_list("key", flat=True))
    assert [r.player_id in cut for r in result.rows] == [False] * 2 + [True] * 6
    assert [r.rank for r in result.rows][:3] == [1, 2, 3]
    page = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert page.count('class="cut-line"') == 1
    assert "Cut after round 2" in page
    # A cut player on 3 points is listed after Day 2's 6-pointer who lost round 3.
    body = page[page.index("<tbody>") :]
    assert body.index("Cut after round 2") > body.index("</tr>")


def test_organiser_standings_print_and_csv_show_the_cut(client, event, organiser):
    cut_event(event, cut_points="6")
    for n in (1, 2, 3):
        play(event, organiser, n)
    client.force_login(organiser)
    for name in ("org_standings", "org_print_standings"):
        html = client.get(reverse(name, args=[event.slug])).content.decode()
        assert html.count('class="cut-line"') == 1, name
        assert "Cut after round 2" in html
    response = client.get(reverse("org_export_standings", args=[event.slug]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [r["cut_after"] for r in rows] == [""] * 2 + ["2"] * 6


def test_no_line_before_the_cut_is_made(client, event, organiser):
    cut_event(event, cut_points="6")
    play(event, organiser, 1)
    play(event, organiser, 2)
    page = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert 'class="cut-line"' not in page


def test_the_top_cut_seeds_from_day_2_only(event, organiser):
    cut_event(event, cut_points="6", top_cut=4)
    for n in (1, 2, 3):
        play(event, organiser, n)
    with pytest.raises(Exception, match="top 4|players"):
        # Two players made Day 2: a top 4 cannot be seeded from them.
        start_top_cut(event, organiser)
    Event.objects.filter(pk=event.pk).update(top_cut=2)
    event.refresh_from_db()
    bracket = start_top_cut(event, organiser)
    made = set(Player.objects.filter(event=event, cut_after__isnull=True).values_list("pk", flat=True))
    assert in_round(event, bracket.number) == made


def test_the_record_with_the_fewest_wins_that_reaches_the_points(event):
    Event.objects.filter(pk=event.pk).update(cut_after=9, cut_points="21")
    event.refresh_from_db()
    assert fewest_wins(event, 21) == (7, 2)
    assert requirement_text(event) == "Day 2: at least 21 match points (a 7–2 record)"
    Event.objects.filter(pk=event.pk).update(cut_points="", cut_top=64)
    event.refresh_from_db()
    assert requirement_text(event) == "Day 2: the top 64"


def test_phones_say_what_makes_day_2_before_the_cut(client, event, organiser):
    cut_event(event, cut_points="6")
    play(event, organiser, 1)
    player = Player.objects.filter(event=event).first()
    for url in (
        reverse("public:standings", args=[event.slug]),
        reverse("public:player", args=[event.slug, player.pk]),
        reverse("player:link", args=[event.slug, player.pk, player.token]),
    ):
        assert "Day 2: at least 6 match points (a 2–0 record)" in text_of(client.get(url, follow=True)), url


def test_phones_say_who_made_day_2_and_who_was_cut_after_it(client, event, organiser):
    cut_event(event, cut_points="6")
    for n in (1, 2, 3):
        play(event, organiser, n)
    made = Player.objects.filter(event=event, cut_after__isnull=True).first()
    cut = Player.objects.filter(event=event, cut_after=2).first()
    place = next(r.rank for r in event_standings(event).rows if r.player_id == cut.key)
    assert place > 2
    mine = text_of(client.get(reverse("player:link", args=[event.slug, cut.pk, cut.token]), follow=True))
    assert f"You were cut after round 2, in place {place}." in mine
    assert "You made Day 2." in text_of(
        client.get(reverse("player:link", args=[event.slug, made.pk, made.token]), follow=True)
    )
    public = text_of(client.get(reverse("public:player", args=[event.slug, cut.pk])))
    assert f"Cut after round 2, in place {place}." in public
    assert "Day 2: at least" not in public


def test_a_cut_player_is_not_in_the_later_rounds_pairings(client, event, organiser):
    cut_event(event, cut_points="6")
    for n in (1, 2, 3):
        play(event, organiser, n)
    cut = Player.objects.filter(event=event, cut_after=2).first()
    assert not Match.objects.filter(round__event=event, round__number=3, player_a=cut).exists()
    assert not Match.objects.filter(round__event=event, round__number=3, player_b=cut).exists()
    assert Round.objects.filter(event=event, number=3).get().matches.count() == 1


# --- The settings ----------------------------------------------------------------------------------------


def settings_post(client, event, **cut):
    """The settings form as the page shows it, with the Day-2 cut's fields as given."""
    from tests.web.organiser.test_settings_race import loaded_form

    data = loaded_form(client, event)
    for name in ("cut_after", "cut_points", "cut_top", "cut_ties"):
        data[name] = [str(cut.get(name, ""))]
    return client.post(reverse("org_settings", args=[event.slug]), data)


def errors(response) -> str:
    return " ".join(re.findall(r'class="errorlist" role="alert">(.*?)</div>', response.content.decode(), re.S))


def test_the_settings_save_a_cut_with_exact_points(client, event, organiser):
    client.force_login(organiser)
    response = settings_post(client, event, cut_after=2, cut_points="13/2", cut_top=4, cut_ties="breakers")
    assert response.status_code == 302, errors(response)
    event.refresh_from_db()
    assert (event.cut_after, event.cut_points, event.cut_top, event.cut_ties) == (2, "13/2", 4, "breakers")
    page = client.get(reverse("org_settings", args=[event.slug])).content.decode()
    assert 'name="cut_points" value="6.5"' in page


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        ({"cut_after": 2}, "Give the match points, the number of players, or both."),
        ({"cut_points": "6"}, "Say after which round the cut is made."),
        ({"cut_after": 3, "cut_top": 4}, "The cut comes before the last of the 3 Swiss rounds."),
        ({"cut_after": 2, "cut_points": "six"}, "must be a number such as 3, 0.5 or 1/2."),
        ({"cut_after": 2, "cut_points": "-1"}, "cannot be negative."),
        ({"cut_after": 2, "cut_top": 0}, "greater than or equal to 1"),
    ],
)
def test_the_settings_refuse_a_cut_that_cannot_be_made(client, event, organiser, cut, message):
    client.force_login(organiser)
    response = settings_post(client, event, **cut)
    assert response.status_code == 200
    assert message in errors(response)
    event.refresh_from_db()
    assert event.cut_after is None and event.cut_points == ""


def test_the_cut_cannot_be_changed_once_it_is_made(client, event, organiser):
    cut_event(event, cut_points="6")
    play(event, organiser, 1)
    play(event, organiser, 2)
    pair_next_round(event, organiser)
    client.force_login(organiser)
    response = settings_post(client, event, cut_after=2, cut_points="3")
    assert "The cut was made when round 3 was paired: it can no longer be changed." in errors(response)
    event.refresh_from_db()
    assert event.cut_points == "6"
    # Saving the other settings with the cut as it is goes through.
    assert settings_post(client, event, cut_after=2, cut_points="6").status_code == 302


def test_a_cut_after_a_round_already_passed_is_refused(client, event, organiser):
    Event.objects.filter(pk=event.pk).update(planned_rounds=4)
    play(event, organiser, 1)
    play(event, organiser, 2)
    client.force_login(organiser)
    response = settings_post(client, event, cut_after=1, cut_top=4)
    assert "Round 2 is paired already: the cut can come after round 2 at the earliest." in errors(response)
    assert settings_post(client, event, cut_after=2, cut_top=4).status_code == 302


def test_a_chess_event_paired_by_the_dutch_system_pairs_only_day_2_after_the_cut(organiser):
    from tests.conftest import new_chess_event

    chess = new_chess_event(
        organiser,
        {f"Player {c}": 2000 - i * 50 for i, c in enumerate("ABCDEFGH")},
        planned_rounds=3,
        cut_after=2,
        cut_points="3/2",
    )
    for _ in range(2):
        rnd = pair_next_round(chess, organiser)
        publish_round(rnd, organiser)
        for m in rnd.matches.filter(player_b__isnull=False):
            record_result(m, Outcome("played", (1, 0, 0)), organiser, m.version)
    rnd = pair_next_round(chess, organiser)
    made = set(Player.objects.filter(event=chess, cut_after__isnull=True).values_list("pk", flat=True))
    assert 0 < len(made) < 8
    assert in_round(chess, 3) == made
    assert requirement_text(chess) == "Day 2: at least 1.5 match points (a 2–0 record)"
