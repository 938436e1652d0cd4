"""The pages added with sections, the Day-2 cut and the worker's jobs, in Japanese and Danish: every word is the page
language's own (as tests/web/i18n/test_i18n_page_text.py checks an event's other pages), and Japanese pages write no ASCII
space beside a full-width bracket, a range with 〜 (never a Latin dash) and 卓 after its number.

One venue with two sections: Juniors, with a Day-2 cut after round 1 (round 2 paired, four players cut), and Seniors;
two players waiting for a section; the worker's jobs in every state a page shows (queued behind another, running,
stopped, failed, done)."""

import datetime as dt
import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from tests.web.i18n.test_i18n_page_text import EVERYWHERE, LATIN_SPACING, WORD, foreign_words, vocabulary
from tournament.models import Event, EventRole, Job, Player
from tournament.services.results import Outcome, record_result
from tournament.services.rounds import pair_next_round, publish_round
from tournament.services.sections import add_section

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_jobs(settings):
    """A venue this small still offers its export as a job, as a large one does."""
    settings.JOBS_FROM = settings.JOBS_FROM | {"export": 1}


NAMES = {
    "ja": [
        "山田",
        "太郎",
        "青木",
        "花子",
        "加藤",
        "愛",
        "渡辺",
        "健",
        "佐藤",
        "蓮",
        "鈴木",
        "陽菜",
        "高橋",
        "湊",
        "田中",
        "結衣",
        "斎藤",
        "翔",
        "中村",
        "葵",
        "小林",
        "樹",
        "伊藤",
        "凛",
    ],
    "da": [
        "Søren",
        "Kirk",
        "Mette",
        "Holm",
        "Jens",
        "Bæk",
        "Ida",
        "Lund",
        "Freja",
        "Dahl",
        "Mads",
        "Krogh",
        "Karen",
        "Skov",
        "Ole",
        "Winther",
        "Åse",
        "Nørgård",
        "Rasmus",
        "Larsen",
        "Jonas",
        "Friis",
        "Sofie",
        "Vang",
    ],
}
SECTIONS = {"ja": ("ジュニア", "シニア"), "da": ("Juniorer", "Seniorer")}
EVENT_NAME = {"ja": "京都オープン", "da": "Vinterturnering"}


def names(language: str, start: int, n: int) -> list[str]:
    pairs = NAMES[language]
    return [f"{pairs[2 * i]} {pairs[2 * i + 1]}" for i in range(start, start + n)]


def build(language: str, organiser, judge) -> dict:
    """The venue, its sections, a cut made, and what the pages are asked for."""
    root = Event.objects.create(slug="venue", name=EVENT_NAME[language], language=language, planned_rounds=3)
    EventRole.objects.create(event=root, user=organiser, role=EventRole.Role.ORGANISER)
    EventRole.objects.create(event=root, user=judge, role=EventRole.Role.JUDGE)
    juniors_name, seniors_name = SECTIONS[language]
    juniors = add_section(root, juniors_name, organiser, tiebreakers=["omw", "gw", "ogw"], planned_rounds=3)
    seniors = add_section(root, seniors_name, organiser, tiebreakers=["omw", "gw", "ogw"], planned_rounds=3)
    Event.objects.filter(pk__in=[juniors.pk, seniors.pk]).update(language=language)
    Event.objects.filter(pk=juniors.pk).update(cut_after=1, cut_top=4, rating_max=1800, birth_year_min=2010)
    Event.objects.filter(pk=seniors.pk).update(first_table=20, rating_min=1801)
    every = names(language, 0, 12)
    Player.objects.bulk_create(Player(event=juniors, name=n, rating=1500 - 10 * i) for i, n in enumerate(every[:8]))
    Player.objects.bulk_create(Player(event=seniors, name=n, rating=2000 - 10 * i) for i, n in enumerate(every[8:10]))
    Player.objects.bulk_create(Player(event=root, name=n, rating=1600) for n in every[10:12])  # waiting
    juniors.refresh_from_db()
    rnd = pair_next_round(juniors, organiser)
    publish_round(rnd, organiser)
    for m in rnd.matches.filter(player_b__isnull=False):
        record_result(m, Outcome("played", (2, 0, 0)), organiser, m.version)
    publish_round(pair_next_round(juniors, organiser), organiser)  # the cut is made
    cut = juniors.players.filter(cut_after=1).order_by("pk").first()
    assert cut is not None
    return {"root": root, "juniors": juniors, "seniors": seniors, "cut": cut}


def job(event: Event, kind: str, language: str, by, **fields) -> Job:
    return Job.objects.create(event=event, kind=kind, language=language, created_by=by, **fields)


def job_bodies(venue: dict, language: str, by) -> dict[str, str]:
    """The job box in each state it has, one job at a time (an event has one active job at most)."""
    juniors, seniors = venue["juniors"], venue["seniors"]
    now, long_ago = timezone.now(), timezone.now() - dt.timedelta(hours=1)
    with translation.override(language):
        error = gettext("That round is gone: someone re-paired it meanwhile.")
        imported = gettext("Imported %(count)d player.") % {"count": 1}
    running, stopped = {"state": "running", "heartbeat": now}, {"state": "running", "heartbeat": long_ago}
    done = {"state": "done", "finished_at": now}
    made = {
        "pairing queued behind another": (Job.Kind.PAIR, 3, {}),
        "pairing running": (Job.Kind.REPAIR, 2, running),
        "pairing stopped": (Job.Kind.PAIR, 3, stopped),
        "pairing never taken": (Job.Kind.PAIR, 3, {"created_at": long_ago}),
        "pairing failed": (Job.Kind.REPAIR, 2, {"state": "failed", "error": error}),
        "cards queued": (Job.Kind.CARDS, 0, {}),
        "cards running": (Job.Kind.CARDS, 0, running),
        "crosstable stopped": (Job.Kind.CROSSTABLE, 0, stopped),
        "export never taken": (Job.Kind.EXPORT, 0, {"created_at": long_ago}),
        "export failed": (Job.Kind.EXPORT, 0, {"state": "failed", "error": error}),
        "export done": (Job.Kind.EXPORT, 0, done | {"result": b"{}", "result_name": "venue.json"}),
        "export no longer kept": (Job.Kind.EXPORT, 0, done | {"result_name": "venue.json"}),
        "players done": (Job.Kind.PLAYERS, 0, done | {"progress": imported}),
    }
    bodies = {}
    for name, (kind, number, state) in made.items():
        ahead = job(seniors, Job.Kind.EXPORT, language, by, created_at=long_ago) if "behind" in name else None
        j = job(juniors, kind, language, by, round_number=number, **state)
        if j.is_round:
            url = reverse("org_job", args=[juniors.slug]) + f"?job={j.pk}"
        else:
            url = reverse("org_job_page", args=[juniors.slug, j.pk])
        bodies[name] = read(language, "org", url, by)
        Job.objects.filter(pk=j.pk, state__in=Job.ACTIVE).update(state="failed")
        if ahead:
            ahead.delete()
    bodies["large export offered"] = read(language, "org", reverse("org_export_json", args=[juniors.slug]), by)
    return bodies


def read(language: str, who: str, url: str, organiser) -> str:
    client = Client()
    client.cookies["swiss_language"] = language
    if who == "org":
        client.force_login(organiser)
    response = client.get(url, follow=True)
    assert response.status_code == 200, url
    return response.content.decode()


def pages(venue: dict) -> dict[str, tuple[str, str]]:
    root, juniors, seniors, cut = venue["root"], venue["juniors"], venue["seniors"], venue["cut"]
    waiting = root.players.order_by("pk").first()
    return {
        "event home (sections panel)": ("org", reverse("org_event", args=[root.slug])),
        "players waiting for a section": ("org", reverse("org_players", args=[root.slug])),
        "a waiting player": ("org", reverse("org_player_edit", args=[root.slug, waiting.pk])),
        "placement rules": ("org", reverse("org_section_rules", args=[root.slug])),
        "TRF as a section": ("org", reverse("org_section_import_trf", args=[root.slug])),
        "sections' standings": ("org", reverse("org_standings", args=[root.slug])),
        "sections' top cuts": ("org", reverse("org_top_cut", args=[root.slug])),
        "section home": ("org", reverse("org_event", args=[juniors.slug])),
        "section settings (cut)": ("org", reverse("org_settings", args=[juniors.slug])),
        "section roster (cut)": ("org", reverse("org_players", args=[juniors.slug])),
        "cut player": ("org", reverse("org_player_edit", args=[juniors.slug, cut.pk])),
        "section standings (cut line)": ("org", reverse("org_standings", args=[juniors.slug])),
        "round after the cut": ("org", reverse("org_round", args=[juniors.slug, 2])),
        "print standings (cut line)": ("org", reverse("org_print_standings", args=[juniors.slug])),
        "seniors' home": ("org", reverse("org_event", args=[seniors.slug])),
        "venue home": ("public", reverse("public:home", args=[root.slug])),
        "venue pairings": ("public", reverse("public:pairings", args=[root.slug])),
        "venue screen": ("public", reverse("public:screen", args=[root.slug])),
        "venue screen side by side": ("public", reverse("public:screen", args=[root.slug]) + "?layout=side"),
        "section panel": ("public", reverse("public:screen_panel", args=[juniors.slug])),
        "section screen": ("public", reverse("public:screen", args=[juniors.slug])),
        "section public standings": ("public", reverse("public:standings", args=[juniors.slug])),
        "section public pairings": ("public", reverse("public:pairings", args=[juniors.slug])),
        "cut player's public page": ("public", reverse("public:player", args=[juniors.slug, cut.pk])),
        "cut player's phone": ("public", reverse("player:link", args=[juniors.slug, cut.pk, cut.token])),
    }


def every_page(language: str, organiser, judge) -> tuple[dict, dict[str, str]]:
    venue = build(language, organiser, judge)
    bodies = {name: read(language, who, url, organiser) for name, (who, url) in pages(venue).items()}
    return venue, bodies | job_bodies(venue, language, organiser)


@pytest.mark.parametrize("language", ["ja", "da"])
def test_the_venue_cut_and_job_pages_hold_only_the_pages_language(organiser, judge, language):
    venue, bodies = every_page(language, organiser, judge)
    people = {w for p in Player.objects.all() for w in WORD.findall(p.name)}
    allowed = vocabulary(language) | EVERYWHERE | people | {w + "s" for w in people}
    allowed |= {w for e in Event.objects.all() for w in WORD.findall(e.name)} | {"venue", "json"}
    found = {name: foreign_words(body, allowed) for name, body in bodies.items()}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_venue_cut_and_job_pages_space_and_join_as_japanese_is_written(organiser, judge):
    _venue, bodies = every_page("ja", organiser, judge)
    found = {}
    for name, body in bodies.items():
        body = re.sub(r"(?s)<(script|style)\b.*?</\1>", "", body)
        text = html.unescape(re.sub(r"<[^>]+>", "", body))
        hits = sorted(set(LATIN_SPACING.findall(text)))
        if hits:
            found[name] = hits
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
    # What was written the Latin way is there, written the Japanese way.
    shown = {name: html.unescape(re.sub(r"<[^>]+>", "", body)) for name, body in bodies.items()}
    assert "1〜10（自動）" in shown["event home (sections panel)"] and "20〜29" in shown["event home (sections panel)"]
    assert "会場スクリーン（プロジェクター用）" in shown["venue home"]
    assert re.search(r"（\d+秒前に開始）", shown["pairing running"]) and re.search(
        r"（\d+秒前に開始）", shown["cards running"]
    )
