"""Divisions paired together in a section's settings form (docs/sections.md, services/divisions.py): pair with
which other section of the event, below how many players; offered in a section only."""

from fractions import Fraction

from django import forms
from django.utils.translation import gettext_lazy as _

from swiss.sectionfacts import Paired, pair_with_problem
from tournament.models import Event
from tournament.text import engine_text


class PairWithFields:
    """A section's "pair with section … when either has fewer than N players" (divisions paired together,
    ranked apart: services/divisions.py), for a ModelForm of Event listing PAIR_WITH_FIELDS: offered in a
    section only, the choices the other sections of its event, checked to make one pairing of two."""

    LABELS = {
        "pair_with": _("Pair with section"),
        "pair_with_below": _("… when either has fewer than this many players"),
    }
    HELP = {
        "pair_with": _(
            "Divisions too small to play alone are paired together and still ranked, cut and prized apart. "
            "When either section pairs its round 1 with fewer players than this, this section's players play "
            "in the chosen section, each in a division named after their section."
        ),
        "pair_with_below": _(
            "Pokémon's rules allow either: each division its own Swiss (choose no section: an age-separated "
            "Swiss), or small divisions paired together (an age-modified Swiss). Paired together, one Swiss pairs "
            "players by their records whatever their division; the draft and the pairings show each player's "
            "division, so a table of two divisions can be seen and swapped by hand."
        ),
    }

    def pair_with_for_sections_only(self) -> None:
        event = self.instance
        if not event.is_section:
            for name in PAIR_WITH_FIELDS:
                del self.fields[name]
            return
        others = Event.objects.filter(parent_id=event.parent_id).exclude(pk=event.pk).order_by("position", "pk")
        self.fields["pair_with"].queryset = others
        self.fields["pair_with"].empty_label = _("(none: this section pairs alone)")

    def clean_pair_with(self):
        partner = self.cleaned_data.get("pair_with")
        event = self.instance
        if partner is None:
            return None
        if partner.pk == event.pk or partner.parent_id != event.parent_id:
            raise forms.ValidationError(_("Choose another section of this event."))
        self._refuse_pairing(partner, 1, "pair_with")
        return partner

    def clean_pair_with_below(self):
        below = self.cleaned_data.get("pair_with_below")
        partner = self.cleaned_data.get("pair_with")
        if partner is not None:
            self._refuse_pairing(partner, below, "pair_with_below")
        return below

    def _refuse_pairing(self, partner: Event, below: int | None, field: str) -> None:
        """Refuse what the rules of two sections paired together (`swiss.sectionfacts.pair_with_problem`, the
        file reader's too) say is wrong with this field, the section's other settings as posted."""
        event = self.instance
        preset = self.cleaned_data.get("preset", event.preset)
        scoring = tuple(Fraction(self.cleaned_data.get(f, getattr(event, f))) for f in SCORING_FIELDS)
        sections = [
            Paired(str(s.pk), s.name, str(s.pair_with_id or ""), s.pair_with_below, (s.preset, s.scoring))
            for s in Event.objects.filter(parent_id=event.parent_id).exclude(pk=event.pk)
        ]
        this = Paired(str(event.pk), event.name, str(partner.pk), below, (preset, scoring))
        problem = pair_with_problem(this, [*sections, this])
        if problem and problem[0] == field:
            raise forms.ValidationError(engine_text.sentence(problem[1]))


PAIR_WITH_FIELDS = ("pair_with", "pair_with_below")
SCORING_FIELDS = ("win_points", "draw_points", "loss_points")
