"""What the organiser's pages show of an event's sections (docs/sections.md): the event page's Sections panel, and
the standings and top-cut pages of an event with sections, which list its sections (views/sections.py answers the
request)."""

from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament.forms.sections import SectionForm, SectionRulesForm
from tournament.models import Event, Round
from tournament.services.divisions import joined_into
from tournament.services.sections import table_ranges


@dataclass(frozen=True)
class SectionLine:
    """A section as a list of sections shows it: the section, its latest round (None before round 1) and, on the
    Sections panel, its tables and rules (with their form); on the standings and top-cut lists, the section whose
    Swiss its players play in, if any."""

    section: Event
    latest: Round | None
    tables: tuple[int, int] | None = None
    rules_form: SectionRulesForm | None = None
    rules_text: str = ""
    joined_into: Event | None = None


def latest_rounds(sections: list[Event]) -> dict[int, Round]:
    """Each section's latest round, by the section's id, in one query."""
    latest = {}
    for r in Round.objects.filter(event__in=sections).order_by("event_id", "number"):
        latest[r.event_id] = r
    return latest


def sections_panel(event: Event) -> dict:
    """What the event page's Sections panel shows: each section with its players, its current round or state,
    its rules and tables (and their forms), and the count of players waiting on the event, unplaced."""
    sections = list(
        event.sections.order_by("position", "id").annotate(
            registered=Count("players", distinct=True),
            active=Count("players", filter=Q(players__dropped_after__isnull=True), distinct=True),
        )
    )
    ranges = table_ranges(event) if sections else {}
    latest = latest_rounds(sections)
    return {
        "sections": [
            SectionLine(
                s,
                latest.get(s.pk),
                tables=ranges[s.pk],
                rules_form=SectionRulesForm(instance=s, prefix=f"s{s.pk}"),
                rules_text=rules_text(s),
            )
            for s in sections
        ],
        "unplaced": event.players.filter(dropped_after__isnull=True).count() if sections else 0,
        "section_form": SectionForm(initial={"preset": event.preset}),
        # An event that runs one Swiss itself may be split into sections until it pairs round 1.
        "may_add_sections": bool(sections) or not event.rounds.exists(),
    }


def _band(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return _("%(low)s–%(high)s") % {"low": low, "high": high}
    if low is not None:
        return _("from %(low)s") % {"low": low}
    return _("up to %(high)s") % {"high": high}


def rules_text(section: Event) -> str:
    """A section's placement rules in words: "rating 1600–1999 · born from 2010", or "by hand only"."""
    parts = []
    if section.rating_min is not None or section.rating_max is not None:
        parts.append(_("rating %(band)s") % {"band": _band(section.rating_min, section.rating_max)})
    if section.birth_year_min is not None or section.birth_year_max is not None:
        parts.append(_("born %(band)s") % {"band": _band(section.birth_year_min, section.birth_year_max)})
    return pgettext("phrase separator", " · ").join(parts) if parts else _("by hand only")


def section_states(event: Event) -> list[SectionLine]:
    """The sections of an event with sections, each with where it is in its day (the standings and top-cut pages)."""
    sections = list(event.sections.order_by("position", "id"))
    latest = latest_rounds(sections)
    return [SectionLine(s, latest.get(s.pk), joined_into=joined_into(s)) for s in sections]
