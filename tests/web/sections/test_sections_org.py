"""The organiser's side of sections (docs/sections.md): the event's page and list, placing players by the rules,
moving them, registering at the event (one, pasted, CSV), table ranges, and the staff of a section."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tests.web.organiser.test_concurrency import logged_in
from tournament.files import csv_rosters
from tournament.models import Event, EventLog, Player
from tournament.services.locks import ServiceError
from tournament.services.rounds import pair_next_round, publish_round
from tournament.services.sections import (
    add_section,
    move_player,
    place_unplaced,
    range_size,
    table_ranges,
    update_section,
)
from tournament.services.top_cut import start_top_cut

pytestmark = pytest.mark.django_db


def test_the_event_page_lists_its_sections_and_pairs_nothing_itself(venue, organiser):
    a, b = venue.section_list
    page = logged_in(organiser).get(reverse("org_event", args=[venue.slug])).content.decode()
    assert reverse("org_event", args=[a.slug]) in page and reverse("org_event", args=[b.slug]) in page
    assert reverse("org_section_add", args=[venue.slug]) in page
    assert reverse("org_round_pair", args=[venue.slug]) not in page
    with pytest.raises(ServiceError, match="sections"):
        pair_next_round(venue, organiser)


def test_sections_take_the_preset_of_the_form_as_a_new_event_does(venue, organiser):
    client = logged_in(organiser)
    response = client.post(reverse("org_section_add", args=[venue.slug]), {"name": "Chess U1600", "preset": "chess"})
    assert response.status_code == 302
    section = venue.sections.get(name="Chess U1600")
    assert (section.preset, section.win_points, section.draw_points, section.best_of) == ("chess", "1", "1/2", 1)
    assert section.colours and section.tiebreakers and section.position == 3
    assert EventLog.objects.filter(event=venue, action="section_add").exists()
    # FIDE mode: on for a new chess section, as for a new chess event; off for a card game's.
    assert section.fide_mode and section.fide
    client.post(reverse("org_section_add", args=[venue.slug]), {"name": "Draft", "preset": "mtg"})
    assert not venue.sections.get(name="Draft").fide_mode


def test_an_event_without_rounds_may_be_split_into_sections_and_not_after_round_1(event, organiser):
    page = logged_in(organiser).get(reverse("org_event", args=[event.slug])).content.decode()
    assert reverse("org_section_add", args=[event.slug]) in page
    pair_next_round(event, organiser)
    page = logged_in(organiser).get(reverse("org_event", args=[event.slug])).content.decode()
    assert reverse("org_section_add", args=[event.slug]) not in page
    with pytest.raises(ServiceError):
        add_section(event, "A", organiser)


def rules(venue, organiser):
    a, b = venue.section_list
    update_section(a, organiser, rating_min=1800)
    update_section(b, organiser, rating_max=1799)
    return a, b


def test_unplaced_players_are_placed_by_the_rules_and_those_fitting_none_stay(venue, organiser):
    a, b = rules(venue, organiser)
    update_section(b, organiser, rating_min=1000, rating_max=1799)
    high = Player.objects.create(event=venue, name="High", rating=2100)
    low = Player.objects.create(event=venue, name="Low", rating=1200)
    unrated = Player.objects.create(event=venue, name="Unrated")
    placed, left = place_unplaced(venue, organiser)
    assert placed == {"A": 1, "B": 1} and left == 1
    high.refresh_from_db(), low.refresh_from_db(), unrated.refresh_from_db()
    assert (high.event, low.event, unrated.event) == (a, b, venue)
    page = logged_in(organiser).get(reverse("org_players", args=[venue.slug])).content.decode()
    assert "fits no section" in page and "Unrated" in page and "A Player A" in page


def test_a_player_moves_keeping_number_code_and_link_until_their_section_pairs_them(venue, organiser, client):
    a, b = venue.section_list
    player = a.players.get(name="A Player C")
    number, code, token, key = player.number, player.code, player.token, player.key
    move_player(player, b, organiser)
    player.refresh_from_db()
    assert player.event == b and (player.number, player.code, player.token) == (number, code, token)
    assert player.key != key and b.players.filter(key=key).count() == 1  # B's own p3 keeps its key
    assert client.get(reverse("player:link", args=[b.slug, player.pk, token])).status_code == 302
    old_card = client.get(reverse("player:link", args=[a.slug, player.pk, token]))
    assert old_card.status_code == 302 and old_card["Location"] == reverse(
        "player:link", args=[b.slug, player.pk, token]
    )
    assert client.get(reverse("player:link", args=[a.slug, player.pk, "not-the-token"])).status_code == 404
    for event in (venue, a, b):
        assert EventLog.objects.filter(event=event, action="section_move").exists()
    pair_next_round(b, organiser)
    with pytest.raises(ServiceError, match="Withdraw them there"):
        move_player(player, a, organiser)
    player.refresh_from_db()
    assert player.event == b


def test_withdraw_and_enter_again_drops_in_the_old_section_and_enters_with_the_next_number(venue, organiser):
    a, b = venue.section_list
    rnd = pair_next_round(a, organiser)
    publish_round(rnd, organiser)
    player = a.players.get(name="A Player A")
    response = logged_in(organiser).post(
        reverse("org_player_section", args=[a.slug, player.pk]), {"section": b.pk, "reenter": "1"}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.event == a and player.dropped_after == 1
    new = b.players.get(name="A Player A")
    assert new.number == 13 and new.rating == player.rating and new.token != player.token
    assert new.is_active and new.joined_round == 1
    for event in (venue, a, b):
        assert EventLog.objects.filter(event=event, action="section_reenter").exists()


def test_the_move_form_says_to_withdraw_and_enter_again_once_paired(venue, organiser):
    a, b = venue.section_list
    pair_next_round(a, organiser)
    player = a.players.get(name="A Player A")
    client = logged_in(organiser)
    response = client.post(reverse("org_player_section", args=[a.slug, player.pk]), {"section": b.pk}, follow=True)
    assert "Withdraw them there" in response.content.decode()
    assert Player.objects.get(pk=player.pk).event == a


def test_automatic_table_ranges_follow_each_other_in_whole_tens(venue, organiser):
    a, b = venue.section_list
    assert [range_size(n) for n in (0, 6, 20, 21, 40, 41)] == [10, 10, 10, 20, 20, 30]
    assert table_ranges(venue) == {a.pk: (1, 10), b.pk: (11, 20)}
    update_section(a, organiser, first_table=101)
    assert table_ranges(venue) == {a.pk: (101, 110), b.pk: (111, 120)}


def test_a_hand_set_range_overlapping_another_is_refused(venue, organiser):
    a, b = venue.section_list
    update_section(b, organiser, first_table=21)
    with pytest.raises(ServiceError, match="overlap"):
        update_section(a, organiser, first_table=15)
    client = logged_in(organiser)
    response = client.post(reverse("org_section_rules", args=[a.slug]), {f"s{a.pk}-first_table": "25"})
    page = response.content.decode()
    assert response.status_code == 200 and "overlap" in page and 'value="25"' in page
    assert Event.objects.get(pk=a.pk).first_table is None


def test_pairing_a_section_numbers_its_tables_in_its_range_and_reads_fixed_tables_as_absolute(venue, organiser):
    a, b = venue.section_list
    b.players.filter(name="B Player F").update(fixed_table=13)
    rnd = pair_next_round(b, organiser)
    tables = sorted(rnd.matches.exclude(table=None).values_list("table", flat=True))
    assert tables == [11, 12, 13]
    assert rnd.matches.get(table=13).player_a.name == "B Player F" or rnd.matches.get(table=13).player_b.name == (
        "B Player F"
    )
    assert sorted(pair_next_round(a, organiser).matches.values_list("table", flat=True)) == [1, 2, 3]


def test_the_quick_add_at_the_event_places_by_the_rules_or_in_the_section_chosen(venue, organiser):
    a, b = rules(venue, organiser)
    client = logged_in(organiser)
    url = reverse("org_player_add", args=[venue.slug])
    client.post(url, {"name": "Strong, 2000", "once": "t1"})
    client.post(url, {"name": "Chosen, 2000", "section": b.pk, "once": "t2"})
    assert Player.objects.get(name="Strong").event == a
    assert Player.objects.get(name="Chosen").event == b
    assert Player.objects.get(name="Chosen").number == 14  # the venue's next number


def test_a_pasted_list_takes_a_section_column_and_an_unknown_section_keeps_the_list(venue, organiser):
    a, b = rules(venue, organiser)
    update_section(b, organiser, rating_min=1000, rating_max=1799)
    client = logged_in(organiser)
    url = reverse("org_players_paste", args=[venue.slug])
    bad = "name, rating, section\nAnn, 1500, A\nBo, 1500, Z"
    page = client.post(url, {"lines": bad, "once": "p1"}).content.decode()
    assert "no section is called “Z”" in page and "Bo, 1500, Z" in page
    assert not Player.objects.filter(name__in=["Ann", "Bo"]).exists()
    good = "name, rating, section\nAnn, 1500, a\nBo, 1500,\nCy, 2200\nDi, 500"
    assert client.post(url, {"lines": good, "once": "p2"}).status_code == 302
    placed = {p.name: p.event.name for p in Player.objects.filter(name__in=["Ann", "Bo", "Cy", "Di"])}
    assert placed == {"Ann": "A", "Bo": "B", "Cy": "A", "Di": "Regionals"}
    numbers = Player.objects.filter(name__in=["Ann", "Bo", "Cy", "Di"]).values_list("number", flat=True)
    assert sorted(numbers) == [13, 14, 15, 16]  # the venue's run of numbers, on every database
    page = client.get(reverse("org_players", args=[venue.slug])).content.decode()
    assert "fits no section's rules" in page and reverse("org_place_by_rules", args=[venue.slug]) in page


def test_a_csv_file_names_sections_in_any_language_and_an_unknown_one_imports_nothing(venue, organiser):
    a, b = venue.section_list
    client = logged_in(organiser)
    for language, text in (("ja", "名前,部門\n山田 太郎,B\n"), ("da", "navn;gruppe\nSøren Kirk;a\n")):
        client.post(reverse("set_language", args=[language]))
        preview = client.post(
            reverse("org_players_csv", args=[venue.slug]),
            {"file": SimpleUploadedFile("p.csv", text.encode(), content_type="text/csv")},
        )
        assert preview.status_code == 200
        client.post(reverse("org_players_csv_confirm", args=[venue.slug]), {"text": text})
    assert Player.objects.get(name="山田 太郎").event == b and Player.objects.get(name="Søren Kirk").event == a
    client.post(reverse("set_language", args=["en"]))
    text = "name,section\nZed,Nowhere\n"
    preview = client.post(
        reverse("org_players_csv", args=[venue.slug]),
        {"file": SimpleUploadedFile("p.csv", text.encode(), content_type="text/csv")},
    ).content.decode()
    assert "no section is called “Nowhere” (the sections are A, B)" in preview and "Zed" in preview
    client.post(reverse("org_players_csv_confirm", args=[venue.slug]), {"text": text})
    assert not Player.objects.filter(name="Zed").exists()


def test_the_event_list_shows_sections_under_their_event_never_as_events(venue, organiser):
    a, b = venue.section_list
    page = logged_in(organiser).get(reverse("event_list")).content.decode()
    assert page.count('class="card"') == 1 and "Regionals" in page
    assert reverse("org_event", args=[a.slug]) in page and reverse("org_event", args=[b.slug]) in page


def test_a_judge_of_the_event_works_the_pages_of_a_section_which_lead_back_and_across(venue, judge, organiser):
    a, b = venue.section_list
    rnd = pair_next_round(a, organiser)
    publish_round(rnd, organiser)
    client = logged_in(judge)
    for name in ("org_event", "org_players", "org_standings"):
        page = client.get(reverse(name, args=[a.slug])).content.decode()
        assert reverse("org_event", args=[venue.slug]) in page and reverse("org_event", args=[b.slug]) in page
    assert client.get(reverse("org_round", args=[a.slug, 1])).status_code == 200
    assert client.post(reverse("org_section_rules", args=[a.slug]), {}).status_code == 403
    assert client.post(reverse("org_player_section", args=[a.slug, a.players.first().pk]), {}).status_code == 403


def test_the_staff_of_a_section_are_the_events(venue, organiser, judge, outsider):
    a, _b = venue.section_list
    client = logged_in(organiser)
    page = client.get(reverse("org_settings", args=[a.slug])).content.decode()
    assert judge.username in page
    client.post(reverse("org_staff_add", args=[a.slug]), {"username": outsider.username, "role": "judge"})
    assert venue.invites.filter(username=outsider.username).exists() and not a.invites.exists()
    role = venue.roles.get(user=judge)
    client.post(reverse("org_staff_remove", args=[a.slug, role.pk]))
    assert not venue.roles.filter(user=judge).exists()


def test_slips_and_printed_pairings_name_the_event_and_the_section(venue, organiser):
    a, _b = venue.section_list
    rnd = pair_next_round(a, organiser)
    publish_round(rnd, organiser)
    client = logged_in(organiser)
    for name in ("org_print_slips", "org_print_by_table", "org_print_by_name"):
        assert "Regionals · A" in client.get(reverse(name, args=[a.slug, 1])).content.decode()
    assert "Regionals · A" in client.get(reverse("org_print_cards", args=[a.slug])).content.decode()


def test_a_sections_top_cut_plays_at_tables_in_its_range(venue, organiser):
    _a, b = venue.section_list
    Event.objects.filter(pk=b.pk).update(top_cut=4)
    b.refresh_from_db()
    rnd = pair_next_round(b, organiser)
    rnd.matches.exclude(player_b=None).update(games_a=2, games_b=0, games_drawn=0)
    publish_round(rnd, organiser)
    bracket = start_top_cut(b, organiser)
    assert sorted(bracket.matches.values_list("table", flat=True)) == [11, 12]


def test_the_events_players_export_names_each_players_section_and_comes_back_in(venue, organiser):
    a, b = venue.section_list
    Player.objects.create(event=venue, name="Waiting")
    client = logged_in(organiser)
    Event.objects.filter(pk=venue.pk).update(language="ja")
    with translation.override("ja"):
        client.get(reverse("set_language", args=["ja"]))
        exported = client.get(reverse("org_export_players", args=[venue.slug])).content.decode()
    header, *lines = exported.lstrip("\ufeff").splitlines()
    assert header.endswith(",部門") and len(lines) == 13
    assert any(line.startswith("1,A Player A,") and line.endswith(",A") for line in lines)
    assert any(",Waiting," in line and line.endswith(",") for line in lines)
    rows = csv_rosters.parse_players(exported.lstrip("\ufeff"))
    csv_rosters.check_sections(rows, ["A", "B"])
    assert all(r.ok for r in rows) and {r.section for r in rows} == {"A", "B", ""}
