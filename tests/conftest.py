"""The shared cast: organiser, judge, outsider; a small event; the seed examples."""

import os
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("SHARED_DIR") or Path(__file__).resolve().parents[2] / "shared")
EXAMPLES = SHARED / "examples"


def example_files() -> list[Path]:
    return sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("olga", password="organiser-pass-1")


@pytest.fixture
def judge(django_user_model):
    return django_user_model.objects.create_user("jules", password="judge-pass-1")


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("otto", password="outsider-pass-1")


@pytest.fixture
def event(organiser, judge):
    from tournament.models import Event, EventRole, Player

    e = Event.objects.create(slug="friday", name="Friday Night", tiebreakers=["omw", "gw", "ogw"], planned_rounds=3)
    EventRole.objects.create(event=e, user=organiser, role=EventRole.Role.ORGANISER)
    EventRole.objects.create(event=e, user=judge, role=EventRole.Role.JUDGE)
    Player.objects.bulk_create(
        Player(event=e, name=f"Player {c}", rating=1500 - i * 10) for i, c in enumerate("ABCDEFGH")
    )
    return e
