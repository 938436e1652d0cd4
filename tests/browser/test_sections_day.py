"""The venue day of sections, done when one event runs three tournaments at once (docs/sections.md): a chess section
paired by the FIDE Dutch system, a Magic section that cuts to Day 2 after round 3 and then plays a top 8, and two
Pokémon divisions (Juniors and Seniors) paired together and ranked apart.

The organiser does it in the browser: logs in, adds the sections on the event's page, sets their placement rules
and settings, registers everybody at the event (a pasted list with a section column, a CSV file placed by the
rules), pairs, publishes and enters results. A player's phone (360 px) and the venue screen stay open beside,
and the venue's pages are read as a person reads them, in English, Japanese and Danish.
"""

import re

import pytest
from django.db.models import Q
from playwright.sync_api import expect

from tests.browser.test_i18n_pages import english_left, english_ui
from tests.browser.test_organiser_flow import enter_results, pair_and_publish
from tournament.models import Event, Match, Player, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
SCREEN = {"width": 1920, "height": 1080}
EVENT = "Spring Regionals"

OPEN = [("Anna Berg", 2110), ("Boris Lenz", 2045), ("Clara Moretti", 1980), ("David Novak", 1920)]
OPEN += [("Elena Sato", 1875), ("Felix Braun", 1810), ("Greta Holm", 1760), ("Hugo Petit", 1700)]
MAGIC = [
    "Ivo Marsh", "Jade Quinn", "Kofi Mensah", "Lena Vogel", "Milo Grant", "Nora Lind", "Omar Haddad",
    "Pia Keller", "Quentin Roux", "Rosa Lima", "Sami Koski", "Tara Byrne", "Uma Rao", "Viktor Ilic",
    "Wanda Nowak", "Xavier Cruz", "Yara Saleh", "Zeno Costa", "Alba Ferro", "Bram Visser",
]  # fmt: skip
JUNIORS = [("Cato Reed", "2013-04-02"), ("Dana Wolfe", "2014-09-17"), ("Emil Stone", "2012-01-30")]
JUNIORS += [("Fay Brooks", "2013-11-05")]
SENIORS = [("Gil Archer", "2009-06-12"), ("Hana Ito", "2010-02-25"), ("Ines Park", "2008-08-08")]
SENIORS += [("Jon Frost", "2011-03-14"), ("Kim Lowe", "2009-12-01"), ("Lia Marsh", "2010-07-19")]


def pasted_list() -> str:
    """Chess and Magic players as an organiser keeps them in a sheet: a heading line naming a section column."""
    lines = ["name, rating, section"]
    lines += [f"{name}, {rating}, Open" for name, rating in OPEN]
    lines += [f"{name}, , Magic" for name in MAGIC]
    return "\n".join(lines)


def pokemon_csv() -> bytes:
    """The Pokémon players with their birth dates and no section: the birth-year rules place them."""
    return ("name,birth_date\n" + "".join(f"{n},{d}\n" for n, d in JUNIORS + SENIORS)).encode()


def log_in(org, url):
    org.goto(f"{url}/")
    org.get_by_label("Username").fill("olga")
    org.get_by_label("Password").fill("organiser-pass-1")
    org.get_by_role("button", name="Log in").click()
    expect(org.get_by_role("heading", name="Your events")).to_be_visible()


def add_sections(org, url) -> dict[str, Event]:
    org.get_by_role("link", name="New event").click()
    org.get_by_label("Name").fill(EVENT)
    org.get_by_role("button", name="Create event").click()
    expect(org.get_by_role("heading", name="Players")).to_be_visible()
    event = Event.objects.get(name=EVENT)
    org.goto(f"{url}/events/{event.slug}/")
    for name, preset in (("Open", "Chess (Swiss)"), ("Magic", "Magic (MTR)")) + (
        ("Juniors", "Pokémon (TPCi)"),
        ("Seniors", "Pokémon (TPCi)"),
    ):
        org.get_by_label("Section name").fill(name)
        org.get_by_label("Preset").select_option(label=preset)
        org.get_by_role("button", name="Add a section").click()
        expect(org.locator(".messages")).to_contain_text(f"Section “{name}” is added.")
    sections = {s.name: s for s in event.sections.all()}
    # Placement by birth year: Juniors born 2012 or later, Seniors 2008–2011.
    for name, low, high in (("Juniors", "2012", ""), ("Seniors", "2008", "2011")):
        form = org.locator("form.section-rules", has=org.get_by_role("button", name=f"Save the rules of {name}"))
        form.get_by_label("Born from (year)").fill(low)
        form.get_by_label("Born up to (year)").fill(high)
        form.get_by_role("button", name=f"Save the rules of {name}").click()
        expect(org.locator(".messages")).to_contain_text(f"Section “{name}”: saved.")
    panel = org.locator("#sections")
    expect(panel).to_contain_text("born from 2012")
    expect(panel).to_contain_text("born 2008–2011")
    return event, sections


def register(org, url, event, tmp_path):
    org.goto(f"{url}/events/{event.slug}/players/")
    org.get_by_text("Paste a list").click()
    org.get_by_label("Paste players, one per line").fill(pasted_list())
    org.get_by_role("button", name="Add these players").click()
    expect(org.locator("#roster")).to_contain_text("Bram Visser")
    csv = tmp_path / "pokemon.csv"
    csv.write_bytes(pokemon_csv())
    org.get_by_text("Import a CSV file").click()
    org.get_by_label(re.compile("CSV file")).set_input_files(str(csv))
    org.get_by_role("button", name="Preview").click()
    org.get_by_role("button", name=re.compile("^Import")).click()
    expect(org.locator("#roster")).to_contain_text("Lia Marsh")
    counts = {s.name: s.players.count() for s in event.sections.all()}
    assert counts == {"Open": 8, "Magic": 20, "Juniors": 4, "Seniors": 6}, counts
    assert not event.players.exists()  # nobody waits on the event, unplaced


def save_settings(org, url, section, fields: dict, selects: dict = {}):  # noqa: B006 (read only)
    org.goto(f"{url}/events/{section.slug}/settings/")
    for label, value in fields.items():
        org.get_by_label(label, exact=True).fill(value)
    for label, option in selects.items():
        org.get_by_label(label, exact=True).select_option(label=option)
    org.get_by_role("button", name="Save settings").click()
    expect(org.locator(".messages")).to_be_visible()
    assert not org.locator(".errorlist").count(), org.locator(".errorlist").all_inner_texts()


def test_one_event_runs_three_tournaments_at_once(live_server, browser, page, organiser, shot, tmp_path):
    org = page
    org.set_viewport_size({"width": 1280, "height": 900})
    phone = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    screen = browser.new_context(viewport=SCREEN, locale="en-GB").new_page()
    try:
        run_the_day(live_server.url, org, phone, screen, shot, tmp_path)
    finally:
        phone.context.close()
        screen.context.close()


def run_the_day(url, org, phone, screen, shot, tmp_path):
    log_in(org, url)
    event, s = add_sections(org, url)
    shot("sections-added")
    register(org, url, event, tmp_path)
    shot("registered")

    # The Magic section: four Swiss rounds, a Day-2 cut after round 3 to the top 12, then a top 8.
    save_settings(
        org,
        url,
        s["Magic"],
        {"Swiss rounds": "4", "Top cut": "8", "Cut after round": "3", "Day 2 for the top": "12"},
        {"Ties at the line of the top": "The tie-breakers decide: exactly that many"},
    )
    # The Juniors (4) play in the Seniors' (6) Swiss when either has fewer than 8.
    save_settings(
        org,
        url,
        s["Juniors"],
        {"… when either has fewer than this many players": "8"},
        {"Pair with section": "Seniors"},
    )
    for section in s.values():
        section.refresh_from_db()
    assert (s["Magic"].cut_after, s["Magic"].cut_top, s["Magic"].top_cut) == (3, 12, 8)
    assert (s["Juniors"].pair_with_id, s["Juniors"].pair_with_below) == (s["Seniors"].pk, 8)

    # The phone and the screen, open at the venue's address before round 1.
    phone.goto(f"{url}/e/{event.slug}/")
    expect(phone.locator(".section-list li")).to_have_count(4)
    screen.goto(f"{url}/e/{event.slug}/screen/?layout=side")
    for name in s:
        expect(screen.locator("body")).to_contain_text(name)

    # Chess: round 1 by the FIDE Dutch system, published, results in.
    org.goto(f"{url}/events/{s['Open'].slug}/")
    pair_and_publish(org, 1, shot)
    enter_results(org, ("1-0", "½-½", "0-1"))
    shot("chess-round-1")

    # Pokémon: the Juniors pair their round 1, and it is paired in the Seniors' section with both divisions.
    org.goto(f"{url}/events/{s['Juniors'].slug}/")
    org.get_by_role("button", name="Pair round 1").click()
    expect(org.get_by_role("heading", name=re.compile("Round 1"))).to_contain_text("draft")
    assert s["Seniors"].slug in org.url, org.url
    org.get_by_role("button", name="Publish round 1").click()
    expect(org.locator("#outstanding")).to_be_visible()
    expect(org.locator("#matches tr.match")).to_have_count(5)
    enter_results(org, ("2-0", "2-1", "1-2", "0-2"))
    assert set(Player.objects.filter(event=s["Seniors"]).values_list("division", flat=True)) == {"Juniors", "Seniors"}

    # Magic: rounds 1 to 3, the Day-2 line announced on the standings before the cut.
    org.goto(f"{url}/events/{s['Magic'].slug}/")
    for number in (1, 2, 3):
        pair_and_publish(org, number, shot)
        enter_results(org, ("2-0", "2-1", "1-2", "0-2"))
    phone.goto(f"{url}/e/{s['Magic'].slug}/standings/")
    expect(phone.locator("main")).to_contain_text("Day 2: the top 12")
    # Round 4 pairs only the twelve who made Day 2; the public standings draw the line.
    pair_and_publish(org, 4, shot)
    expect(org.locator("#matches tr.match")).to_have_count(6)
    day_two = set(Player.objects.filter(event=s["Magic"], cut_after__isnull=True).values_list("pk", flat=True))
    assert len(day_two) == 12
    round_4 = Match.objects.filter(round__event=s["Magic"], round__number=4)
    assert {m.player_a_id for m in round_4} | {m.player_b_id for m in round_4} == day_two
    enter_results(org, ("2-0", "2-1", "1-2", "0-2"))
    phone.goto(f"{url}/e/{s['Magic'].slug}/standings/")
    expect(phone.locator("main")).to_contain_text("Cut after round 3")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot("phone-magic-standings", phone)
    # The top 8, seeded from Day 2 only.
    org.goto(f"{url}/events/{s['Magic'].slug}/rounds/4/")
    org.get_by_role("link", name="Start top 8", exact=True).click()
    org.get_by_role("button", name="Pair the top 8 as a draft").click()
    expect(org.get_by_text("The bracket is a draft")).to_be_visible()
    org.get_by_role("button", name="Publish the bracket").click()
    quarters = Round.objects.get(event=s["Magic"], kind=Round.Kind.ELIMINATION)
    seeded = {m.player_a_id for m in quarters.matches.all()} | {m.player_b_id for m in quarters.matches.all()}
    assert len(seeded) == 8 and seeded <= day_two
    shot("magic-top-8")

    check_public_pages(url, event, s, phone, screen, shot)


def check_public_pages(url, event, s, phone, screen, shot):
    # The venue's address lists the four sections, each with its round.
    phone.goto(f"{url}/e/{event.slug}/")
    items = phone.locator(".section-list li")
    expect(items).to_have_count(4)
    for name, state in (
        ("Open", "Round 1"),
        ("Magic", "Top cut: Quarterfinals"),
        ("Seniors", "Round 1"),
        ("Juniors", "Plays in Seniors"),  # the division paired together with Seniors says where it plays
    ):
        expect(items.filter(has=phone.get_by_role("link", name=name, exact=True))).to_contain_text(state)
    expect(items.filter(has_text="Magic").get_by_role("link", name="Top cut bracket")).to_be_visible()
    shot("phone-venue-home", phone)

    # Table numbers: each section's own range, never the same table twice across the venue.
    tables = list(
        Match.objects.filter(round__event__parent=event, round__number=1, table__isnull=False).values_list(
            "round__event__name", "table"
        )
    )
    numbers = [t for _name, t in tables]
    assert len(numbers) == len(set(numbers)), sorted(tables)
    by_section = {}
    for name, t in tables:
        by_section.setdefault(name, []).append(t)
    ranges = sorted((min(ts), max(ts)) for ts in by_section.values())
    assert all(a[1] < b[0] for a, b in zip(ranges, ranges[1:], strict=False)), ranges

    # The search at the event's address finds a player of each section, with the section and the table they play
    # at now: round 1 of the chess and the Pokémon Swiss, the quarterfinals of the Magic top 8.
    quarterfinalist = Match.objects.filter(round__event=s["Magic"], round__kind=Round.Kind.ELIMINATION).first().player_a
    for name, section in (("Anna Berg", "Open"), (quarterfinalist.name, "Magic"), ("Cato Reed", "Seniors")):
        player = Player.objects.get(name=name)
        match = (
            Match.objects.filter(round__event=player.event)
            .filter(Q(player_a=player) | Q(player_b=player))
            .order_by("-round__number")
            .first()
        )
        phone.goto(f"{url}/e/{event.slug}/pairings/?q={name.split()[0]}")
        row = phone.locator("table.venue-found tbody tr", has_text=name)
        expect(row).to_have_count(1)
        expect(row.locator("td").nth(0)).to_have_text(section)
        expect(row.locator(".table-no")).to_have_text(re.compile(rf"^\s*{match.table}\b"))
        # The player's page names their section.
        row.get_by_role("link", name=name).click()
        expect(phone.locator("header").first).to_contain_text(f"{EVENT} › {section}")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot("phone-junior", phone)

    # A Junior opening their own section's home is sent to the Seniors', where they play.
    phone.goto(f"{url}/e/{s['Juniors'].slug}/")
    expect(phone.locator("main")).not_to_contain_text("Not started yet")
    phone.get_by_label("Find your table").fill("Cato")
    phone.get_by_role("button", name="Find").click()
    expect(phone.locator('#pairings tr[data-name="Cato Reed"]')).to_be_visible()
    assert s["Seniors"].slug in phone.url

    # The divisions' standings: one table a division, each ranked from 1.
    phone.goto(f"{url}/e/{s['Seniors'].slug}/standings/")
    expect(phone.locator("h2.division")).to_have_text(["Juniors", "Seniors"])
    tables = phone.locator("table.standings")
    expect(tables).to_have_count(2)
    for k, names in ((0, JUNIORS), (1, SENIORS)):
        expect(tables.nth(k).locator("tbody tr")).to_have_count(len(names))
        expect(tables.nth(k).locator("tbody tr").first.locator("td").first).to_have_text("1")
        expect(tables.nth(k)).to_contain_text(names[0][0])
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot("phone-divisions", phone)

    # The screen shows every section side by side, and in turns; each with its players' names.
    quarterfinalist = Match.objects.filter(round__event=s["Magic"], round__kind=Round.Kind.ELIMINATION).first()
    names = {"Open": "Anna Berg", "Magic": quarterfinalist.player_a.name, "Seniors": "Gil Archer"}
    screen.goto(f"{url}/e/{event.slug}/screen/?layout=side")
    for section, name in names.items():
        panel = screen.locator(".panel", has=screen.get_by_role("heading", name=section, exact=True))
        expect(panel).to_be_visible(timeout=15_000)
        expect(panel).to_contain_text(name)
    expect(screen.locator(".panel", has_text="Juniors").last).to_contain_text("Cato Reed")  # in the Seniors'
    shot("screen-side", screen)
    # The screen's own controls show while the mouse moves (and hide again, out of the room's sight).
    screen.mouse.move(40, 40)
    screen.mouse.move(60, 60)
    screen.get_by_role("link", name="One section at a time").click()
    expect(screen.locator(".venue.layout-turns")).to_be_visible()
    shown = []
    for _turn in range(8):  # the arrow key turns the screen, as a person at the laptop would
        visible = screen.locator(".panel:visible h2")
        expect(visible).to_have_count(1)
        shown.append(visible.inner_text())
        screen.keyboard.press("ArrowRight")
    # The Juniors play in the Seniors' section: their board is the Seniors', not one of their own.
    assert set(shown) == set(s) - {"Juniors"}, shown
    shot("screen-turns", screen)

    # Printed slips name the event and the section.
    org_page = phone.context.browser.new_context(viewport={"width": 1024, "height": 800}).new_page()
    log_in(org_page, url)
    org_page.goto(f"{url}/events/{s['Open'].slug}/rounds/1/print/slips/")
    expect(org_page.locator("body")).to_contain_text(f"{EVENT} · Open")
    org_page.context.close()

    # Japanese and Danish: the venue's pages and the divisions' standings, without English left.
    for language, locale in (("ja", "ja-JP"), ("da", "da-DK")):
        context = phone.context.browser.new_context(viewport=PHONE, locale=locale)
        page = context.new_page()
        patterns = english_ui(language)
        pages = {
            "venue-home": f"{url}/e/{event.slug}/",
            "venue-search": f"{url}/e/{event.slug}/pairings/?q=a",
            "venue-code": f"{url}/e/{event.slug}/me/code/",
            "section-home": f"{url}/e/{s['Magic'].slug}/",
            "cut-standings": f"{url}/e/{s['Magic'].slug}/standings/",
            "divisions-standings": f"{url}/e/{s['Seniors'].slug}/standings/",
            "joined-home": f"{url}/e/{s['Juniors'].slug}/",
        }
        for name, address in pages.items():
            page.goto(address)
            expect(page.locator("html")).to_have_attribute("lang", language)
            assert english_left(page, patterns) == [], f"{name}: English left on the {language} page"
            shot(f"{language}-{name}", page)
        context.close()

    # The organiser's new pages in Japanese and Danish too: the Sections panel, the registration at the event,
    # a section's rules, its Day-2 cut and pairing-together settings, the cut's and the divisions' standings.
    for language, locale in (("ja", "ja-JP"), ("da", "da-DK")):
        context = phone.context.browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
        page = context.new_page()
        page.goto(f"{url}/login/")
        page.locator("input[name=username]").fill("olga")
        page.locator("input[name=password]").fill("organiser-pass-1")
        page.locator("form button[type=submit]").click()
        expect(page).not_to_have_url(re.compile("/login/"))
        patterns = english_ui(language)
        pages = {
            "event": f"{url}/events/{event.slug}/",
            "players": f"{url}/events/{event.slug}/players/",
            "rules": f"{url}/events/{s['Juniors'].slug}/sections/rules/",
            "magic-settings": f"{url}/events/{s['Magic'].slug}/settings/",
            "juniors-settings": f"{url}/events/{s['Juniors'].slug}/settings/",
            "juniors-home": f"{url}/events/{s['Juniors'].slug}/",
            "cut-standings": f"{url}/events/{s['Magic'].slug}/standings/",
            "divisions-standings": f"{url}/events/{s['Seniors'].slug}/standings/",
            "slips": f"{url}/events/{s['Open'].slug}/rounds/1/print/slips/",
        }
        for name, address in pages.items():
            page.goto(address)
            expect(page.locator("html")).to_have_attribute("lang", language)
            assert english_left(page, patterns) == [], f"organiser's {name}: English left on the {language} page"
            shot(f"{language}-org-{name}", page)
        context.close()
