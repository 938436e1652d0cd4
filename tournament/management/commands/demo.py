import os

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction

from pairing.rounds import recommended_rounds
from swiss.presets import PRESETS
from tournament.models import Event, EventRole, Player

DEMO_USER = "organiser"
DEMO_PASSWORD = "swiss-demo"  # noqa: S105 - printed on purpose: a local demo login
DEMO_SLUG = "demo"
DEMO_PLAYERS = [
    ("Aiko Tanaka", 1720),
    ("Bjørn Madsen", 1650),
    ("Chiara Rossi", 1600),
    ("Dmitri Volkov", 1580),
    ("Emeka Okafor", 1540),
    ("Freya Lindqvist", 1510),
    ("Gabriel Souza", 1490),
    ("Hana Kim", 1460),
    ("Ines Duarte", 1430),
    ("Jonas Weber", 1400),
    ("Kaito Mori", 1380),
    ("Lucía Fernández", 1350),
]


class Command(BaseCommand):
    help = "Create the demo organiser account and a demo event with players, unless they exist already."

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        user, created = User.objects.get_or_create(username=DEMO_USER, defaults={"is_staff": True})
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        # The demo organiser creates events (EVENT_CREATION "invited" lets only such accounts).
        user.user_permissions.add(Permission.objects.get(codename="add_event", content_type__app_label="tournament"))
        if not Event.objects.filter(slug=DEMO_SLUG).exists():
            preset = PRESETS["mtg"]
            # The event is created as the app recommends for its players, so its pages recommend nothing else.
            advice = recommended_rounds(len(DEMO_PLAYERS), preset="mtg")
            event = Event.objects.create(
                slug=DEMO_SLUG,
                name="Demo Friday Night",
                preset="mtg",
                tiebreakers=list(preset.tiebreakers),
                planned_rounds=advice.rounds,
                top_cut=advice.top_cut,
            )
            Player.objects.bulk_create(Player(event=event, name=n, rating=r) for n, r in DEMO_PLAYERS)
            EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
        site = f"http://127.0.0.1:{os.environ.get('PORT') or 8000}"  # `make run PORT=8001` serves there
        self.stdout.write(
            f"\n  Demo organiser login: {DEMO_USER} / {DEMO_PASSWORD}"
            f"{'' if created else ' (account existed already; password unchanged)'}\n"
            f"  Open {site}/ — the demo event is at {site}/e/{DEMO_SLUG}/\n"
        )
