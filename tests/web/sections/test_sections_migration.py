"""The one-section migration (docs/sections.md): every event made before sections existed is an event that runs one Swiss
itself, its pages and its players exactly as they were."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from tournament.models import Event, Player


@pytest.mark.django_db(transaction=True)
def test_an_event_from_before_sections_is_its_own_only_section_unchanged():
    executor = MigrationExecutor(connection)
    migration = next(k for k in executor.loader.disk_migrations if k[0] == "tournament" and k[1] == "0025_sections")
    before = [d for d in executor.loader.get_migration(*migration).dependencies if d[0] == "tournament"]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    made = old.get_model("tournament", "Event").objects.create(slug="old-open", name="Old Open", planned_rounds=3)
    OldPlayer = old.get_model("tournament", "Player")
    for k in range(1, 5):
        OldPlayer.objects.create(event=made, number=k, key=f"p{k}", name=f"Player {k}", code=f"ACEF{k:04d}")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    event = Event.objects.get(slug="old-open")
    assert (event.parent, event.section_list, event.root, event.is_section) == (None, [], event, False)
    assert (event.first_table, event.cut_after, event.cut_top, event.pair_with, event.rating_min) == (None,) * 5
    players = list(Player.objects.filter(event=event).order_by("number"))
    assert [(p.number, p.division, p.cut_after) for p in players] == [(k, "", None) for k in range(1, 5)]
    # Its public page is the page of one Swiss, not a venue's list of sections.
    page = Client().get(reverse("public:home", args=[event.slug]))
    assert page.status_code == 200 and "Old Open" in page.content.decode()
    assert 'class="sections"' not in page.content.decode() and "section-list" not in page.content.decode()
    # A new player continues the event's own numbering.
    assert Player.objects.create(event=event, name="Late").number == 5
