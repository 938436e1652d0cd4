"""The divisions' join became a column (`Event.joined_partner`, docs/sections.md): a section joined before it existed
is read from its audit log line by the migration, and plays in its partner exactly as before."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournament.models import Event
from tournament.services.divisions import joined_into, plays_in


@pytest.mark.django_db(transaction=True)
def test_a_section_joined_before_the_column_still_plays_in_its_partner():
    executor = MigrationExecutor(connection)
    migration = next(
        k for k in executor.loader.disk_migrations if k[0] == "tournament" and k[1].endswith("_event_joined_partner")
    )
    before = [d for d in executor.loader.get_migration(*migration).dependencies if d[0] == "tournament"]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldEvent, OldLog = old.get_model("tournament", "Event"), old.get_model("tournament", "EventLog")
    venue = OldEvent.objects.create(slug="cup", name="Cup", preset="pokemon")
    masters = OldEvent.objects.create(slug="cup-masters", name="Masters", preset="pokemon", parent=venue)
    seniors = OldEvent.objects.create(
        slug="cup-seniors", name="Seniors", preset="pokemon", parent=venue, pair_with=masters, pair_with_below=8
    )
    juniors = OldEvent.objects.create(
        slug="cup-juniors", name="Juniors", preset="pokemon", parent=venue, pair_with=masters, pair_with_below=8
    )
    other = OldEvent.objects.create(slug="cup-other", name="Other", preset="pokemon", parent=venue)
    detail = {"into": masters.pk, "section": "Seniors", "partner": "Masters", "players": 3}
    OldLog.objects.create(event=seniors, action="divisions_joined", detail=detail)
    OldLog.objects.create(event=masters, action="divisions_join", detail=detail)
    # A line naming an event that is gone joins nothing; another section's log is not a join.
    OldLog.objects.create(event=other, action="divisions_joined", detail={"into": 999999})
    OldLog.objects.create(event=juniors, action="settings_after_pairing", detail={"fields": ["preset"]})
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    seniors, juniors, masters, other = (Event.objects.get(pk=e.pk) for e in (seniors, juniors, masters, other))
    assert seniors.joined_partner == masters and joined_into(seniors) == masters
    assert plays_in(seniors) == (masters, "Seniors")
    assert plays_in(masters) == (masters, "Masters")  # its own entries now play in its division
    assert (juniors.joined_partner, joined_into(juniors), plays_in(juniors)) == (None, None, (juniors, ""))
    assert (other.joined_partner, joined_into(other), plays_in(other)) == (None, None, (other, ""))
