"""A published round paired again by the worker (a large round's re-pairing, a job) goes on the round's trail as the
re-pairing in the request does: one entry, by the organiser who asked, settled to what is published next."""

import pytest
from django.urls import reverse

from tests.web.jobs.test_jobs import big, small_limits, work  # noqa: F401 (fixtures)
from tournament.models import Job, Round, RoundChange
from tournament.services.rounds import pair_next_round, publish_round

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_worker_s_re_pairing_of_a_published_round_is_on_its_trail(client, organiser, big):  # noqa: F811
    pair_next_round(big, organiser)
    rnd = big.rounds.get()
    publish_round(rnd, organiser)
    published = sorted((m.table, m.player_a.key, m.player_b_id and m.player_b.key) for m in rnd.matches.all())
    client.force_login(organiser)
    client.post(reverse("org_round_repair", args=[big.slug, 1]), {"confirm": "1"})
    assert Job.objects.get().kind == Job.Kind.REPAIR
    work()
    (change,) = RoundChange.objects.filter(event=big)
    assert (change.kind, change.round_number, change.by) == ("repair", 1, organiser)
    assert sorted((ln["table"], ln["a"], ln["b"]) for ln in change.was) == published
    draft = big.rounds.get()
    assert draft.state == Round.State.DRAFT
    publish_round(draft, organiser)
    change.refresh_from_db()
    now = sorted((m.table, m.player_a.key, m.player_b_id and m.player_b.key) for m in draft.matches.all())
    assert sorted((ln["table"], ln["a"], ln["b"]) for ln in change.became) == now
