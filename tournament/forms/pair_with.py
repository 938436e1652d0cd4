"""Divisions paired together in a section's settings form (docs/sections.md, services/divisions.py): pair with
which other section of the event, below how many players; offered in a section only."""

from fractions import Fraction

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import Event


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
        if partner.pair_with_id or Event.objects.filter(pair_with=event).exists():
            raise forms.ValidationError(
                _("A section pairs with one section that pairs with none itself: no chains, no circles.")
            )
        preset = self.cleaned_data.get("preset", event.preset)
        scoring = tuple(Fraction(self.cleaned_data.get(f, getattr(event, f))) for f in SCORING_FIELDS)
        if (partner.preset, partner.scoring) != (preset, scoring):
            raise forms.ValidationError(
                _("“%(section)s” has another preset or scoring: sections paired together score alike.")
                % {"section": partner.name}
            )
        return partner

    def clean_pair_with_below(self):
        below = self.cleaned_data.get("pair_with_below")
        if self.cleaned_data.get("pair_with") is not None and not below:
            raise forms.ValidationError(_("Give the number of players below which the two sections pair together."))
        return below


PAIR_WITH_FIELDS = ("pair_with", "pair_with_below")
SCORING_FIELDS = ("win_points", "draw_points", "loss_points")
