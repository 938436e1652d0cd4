"""FIDE mode's bye warnings on every path that records a bye (docs/fide-mode.md, "Byes"). The player page's
registration form asks them (pre-awarded byes are full-point byes: level 2, a `###` line a round; "May take
half-point byes" turned off under a requested half-point bye: level 3). A list (CSV import, a pasted list, the
worker's import of a large one) cannot ask row by row: its rows with byes are refused, and nothing of it is added.
Non-FIDE chess events and card-game events take byes from a list as before."""

import pytest
from django.urls import reverse

from tests.conftest import new_chess_event
from tests.web.jobs.test_jobs import mtg_event
from tests.web.organiser.test_fide_mode_manual import pass_all, warned
from tests.web.public.test_public import pair
from tournament.jobs import files as job_files
from tournament.jobs import workflow as jobs
from tournament.jobs.files import players_payload
from tournament.models import Event, EventLog, Job, Player, Round
from tournament.services.locks import ServiceError
from tournament.services.roster import NewPlayer, add_players, request_bye

pytestmark = pytest.mark.django_db

CSV = "name,rating,byes\nEva,1600,\nFinn,1500,2\nGus,1400,0\n"
REFUSED = "in FIDE mode a pre-awarded bye is a full-point bye"


@pytest.fixture
def fide(organiser):
    new_chess_event(organiser, {"Anna": 2000, "Bo": 1900, "Cleo": 1800, "Dan": 1700}, planned_rounds=5)
    Event.objects.filter(slug="open").update(fide_mode=True)
    return Event.objects.get(slug="open")


def codes() -> list[tuple[str, int]]:
    return [(d["code"], d["level"]) for d in EventLog.objects.filter(action="warning").values_list("detail", flat=True)]


def edit(org, player: Player, **changes) -> tuple[str, dict]:
    """The player page's registration form as shown, with `changes`."""
    data = {"name": player.name, "rating": player.rating, "byes": player.byes, "half_bye_ok": "on", **changes}
    return reverse("org_player_edit", args=[player.event.slug, player.pk]), {k: v for k, v in data.items() if v != ""}


def test_pre_awarded_byes_on_the_player_page_are_full_point_byes_asked_one_a_round(org, fide):
    anna = fide.players.get(name="Anna")
    url, data = edit(org, anna, byes=2)
    html = warned(org, url, data)
    assert "warning-level-2" in html and html.count("A full-point bye is deprecated by FIDE") == 2
    anna.refresh_from_db()
    assert anna.byes == 0 and not codes()  # nothing saved until the arbiter has read them
    assert pass_all(org, url, data) == ["full_point_bye", "full_point_bye"]
    anna.refresh_from_db()
    assert anna.byes == 2 and codes() == [("full_point_bye", 2), ("full_point_bye", 2)]
    trf = org.get(reverse("org_export_trf", args=["open"])).content.decode()
    assert "### Full-point bye @ Round 1: Anna" in trf and "### Full-point bye @ Round 2: Anna" in trf
    # Saving the form again with the same byes asks nothing more.
    assert org.post(url, {**data, "rating": 2010}).status_code == 302
    assert len(codes()) == 2


def test_only_the_rounds_not_yet_paired_are_asked(org, fide):
    pair(fide, 1, [("Anna", "Bo"), ("Cleo", "Dan")], state=Round.State.COMPLETE, results={1: (1, 0, 0), 2: (0, 0, 1)})
    dan = fide.players.get(name="Dan")
    url, data = edit(org, dan, byes=2)
    html = warned(org, url, data)
    assert html.count("A full-point bye is deprecated by FIDE") == 1
    pass_all(org, url, data)
    trf = org.get(reverse("org_export_trf", args=["open"])).content.decode()
    assert "### Full-point bye @ Round 2: Dan" in trf and "Round 1: Dan" not in trf


def test_marking_a_player_with_a_half_point_bye_not_eligible_is_level_3(org, fide, organiser):
    bo = fide.players.get(name="Bo")
    request_bye(bo, 3, "half_bye", organiser)
    url, data = edit(org, bo, half_bye_ok="")
    html = warned(org, url, data)
    assert "warning-level-3" in html and "Bo is not eligible for half-point byes." in html
    bo.refresh_from_db()
    assert bo.half_bye_ok
    pass_all(org, url, data)
    bo.refresh_from_db()
    assert not bo.half_bye_ok and codes() == [("half_bye_not_eligible", 3)]
    # A player without a requested half-point bye is marked not eligible without a warning.
    cleo = fide.players.get(name="Cleo")
    url, data = edit(org, cleo, half_bye_ok="")
    assert org.post(url, data).status_code == 302
    cleo.refresh_from_db()
    assert not cleo.half_bye_ok and len(codes()) == 1


def test_a_csv_with_byes_is_refused_whole_in_fide_mode_naming_the_line(org, fide):
    from django.core.files.uploadedfile import SimpleUploadedFile

    preview = org.post(
        reverse("org_players_csv", args=["open"]), {"file": SimpleUploadedFile("r.csv", CSV.encode())}
    ).content.decode()
    assert REFUSED in preview and "record the byes on the player&#x27;s page" in preview
    r = org.post(reverse("org_players_csv_confirm", args=["open"]), {"text": CSV}, follow=True)
    page = r.content.decode()
    assert "Nothing was imported: line 3: byes “2”" in page and "Fix the file and upload it again." in page
    assert fide.players.count() == 4  # Eva and Gus, whose rows were good, are not added either
    fixed = CSV.replace("Finn,1500,2", "Finn,1500,")
    org.post(reverse("org_players_csv_confirm", args=["open"]), {"text": fixed})
    assert fide.players.count() == 7 and not fide.players.filter(byes__gt=0).exists()


def test_a_pasted_list_with_byes_is_refused_in_fide_mode(org, fide):
    lines = "name, rating, id, byes\nEva, 1600\nFinn, 1500, , 1"
    page = org.post(reverse("org_players_paste", args=["open"]), {"lines": lines, "once": "p"}).content.decode()
    assert "Line 3 (Finn, 1500, 1): byes “1”: " + REFUSED in page
    assert fide.players.count() == 4


def test_the_workers_import_refuses_a_list_with_byes_in_fide_mode(fide, organiser):
    job = jobs.start(fide, Job.Kind.PLAYERS, 0, organiser, payload=players_payload("csv", CSV))
    with pytest.raises(ServiceError, match="Nothing was imported: line 3: byes “2”"):
        job_files.run(Job.objects.get(pk=job.pk), lambda text: None)
    assert fide.players.count() == 4


def test_the_roster_service_refuses_byes_in_fide_mode_whatever_the_path(fide, organiser):
    with pytest.raises(ServiceError, match="Nothing was added.*Finn"):
        add_players(fide, organiser, [NewPlayer(name="Eva"), NewPlayer(name="Finn", byes=1)])
    assert fide.players.count() == 4


@pytest.mark.parametrize("kind", ["chess", "cards"])
def test_outside_fide_mode_lists_and_the_player_page_take_byes_as_before(org, organiser, kind):
    if kind == "chess":
        new_chess_event(organiser, {"Anna": 2000}, slug="club")
        event = Event.objects.get(slug="club")
    else:
        event = mtg_event(organiser, 1)
    org.post(reverse("org_players_csv_confirm", args=[event.slug]), {"text": CSV})
    assert {"Finn": 2, "Eva": 0, "Gus": 0}.items() <= dict(event.players.values_list("name", "byes")).items()
    first = event.players.exclude(name__in=["Eva", "Finn", "Gus"]).first()
    url = reverse("org_player_edit", args=[event.slug, first.pk])
    assert org.post(url, {"name": first.name, "byes": 3}).status_code == 302
    first.refresh_from_db()
    assert first.byes == 3 and not EventLog.objects.filter(action="warning").exists()
