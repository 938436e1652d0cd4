"""The Day-2 cut in the event's settings form (docs/sections.md): after which round, at least how many match
points, the top how many, and how ties at the line are settled; checked together, and frozen once the cut is
made (the round after it is paired: services/cut.py)."""

from fractions import Fraction

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from standings.cut import TIES_BREAKERS, TIES_POINTS
from tournament.forms.fields import clean_fraction, fraction_field
from tournament.text import l10n

CUT_FIELDS = ("cut_after", "cut_points", "cut_top", "cut_ties")


class CutFields(forms.Form):
    """Declared on a ModelForm of Event that lists CUT_FIELDS (the form calls `clean_cut` from its `clean`)."""

    cut_after = forms.IntegerField(
        required=False,
        min_value=1,
        label=_("Cut after round"),
        help_text=_("Empty: no Day-2 cut. Players below the line are paired no more but keep their place."),
    )
    cut_points = fraction_field(_("Day 2 with at least these match points"))
    cut_top = forms.IntegerField(required=False, min_value=1, label=_("Day 2 for the top"))
    cut_ties = forms.ChoiceField(
        required=False,
        label=_("Ties at the line of the top"),
        choices=[
            (TIES_POINTS, _("Everyone level on match points with the last place makes it")),
            (TIES_BREAKERS, _("The tie-breakers decide: exactly that many")),
        ],
    )

    def clean_cut_points(self) -> str:
        value = self.cleaned_data["cut_points"]
        if not value.strip():
            return ""
        return clean_fraction(value, gettext("Day 2 with at least these match points"))

    def cut_initial(self) -> None:
        """The points as the organiser reads and types them (0,5 in Danish), and none needed."""
        self.fields["cut_points"].required = False
        points = self.initial.get("cut_points")
        if points:
            self.initial["cut_points"] = l10n.exact(Fraction(points))

    def clean_cut(self, data: dict) -> None:
        after, points, top = data.get("cut_after"), data.get("cut_points"), data.get("cut_top")
        # The ties rule belongs to a top N: kept empty without one, "points" unless told otherwise.
        data["cut_ties"] = (data.get("cut_ties") or TIES_POINTS) if top else ""
        if "cut_after" in self.errors or "cut_points" in self.errors or "cut_top" in self.errors:
            return
        if after is None and (points or top):
            self.add_error("cut_after", _("Say after which round the cut is made."))
        if after is not None and not (points or top):
            self.add_error("cut_points", _("Give the match points, the number of players, or both."))
        planned = data.get("planned_rounds")
        if after is not None and planned and after >= planned:
            self.add_error(
                "cut_after",
                _("The cut comes before the last of the %(rounds)s Swiss rounds.") % {"rounds": planned},
            )
        old = self.instance
        old_ties = (old.cut_ties or TIES_POINTS) if old.cut_top else ""
        if (after, points or "", top, data["cut_ties"]) == (old.cut_after, old.cut_points, old.cut_top, old_ties):
            return
        paired = max(self.instance.rounds.values_list("number", flat=True), default=0) if self.instance.pk else 0
        made = old.cut_after
        if made and paired > made:
            self.add_error(
                "cut_after",
                _("The cut was made when round %(round)s was paired: it can no longer be changed.")
                % {"round": made + 1},
            )
        elif after is not None and paired > after:
            self.add_error(
                "cut_after",
                _("Round %(round)s is paired already: the cut can come after round %(round)s at the earliest.")
                % {"round": paired},
            )
