"""Result forms: one match, a table typed at the desk, a game-by-game record, the clock."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.services.results import outcome_from_games
from tournament.text import game_words

OUT_OF_DATE = _("This page is out of date: reload it and enter the result again.")
NOT_A_RESULT = _("That is not a result: type it like 2-0, 2-1, 1-1 or 0-0-3.")


def version_field() -> forms.IntegerField:
    """The match version the page showed: without it a result could overwrite one the person never saw."""
    return forms.IntegerField(
        min_value=0, widget=forms.HiddenInput, error_messages={"required": OUT_OF_DATE, "invalid": OUT_OF_DATE}
    )


class ResultForm(forms.Form):
    """A one-click result button (round page, top cut)."""

    result = forms.CharField(
        max_length=40, error_messages={"required": _("Pick a result."), "max_length": NOT_A_RESULT}
    )
    version = version_field()
    confirm = forms.BooleanField(required=False)


class TopCutUndoForm(forms.Form):
    confirm = forms.BooleanField(required=False, label=_("Yes, remove the published bracket"))


class TableResultForm(forms.Form):
    """The keyboard path. `version` and `confirm` come with the answer to “replace the stored result?”."""

    table = forms.IntegerField(
        min_value=1,
        max_value=99999,
        label=_("Table"),
        error_messages={"required": _("No table number: nothing was entered. Type the table, Enter, then the result.")},
    )
    result = forms.CharField(
        max_length=40,
        label=_("Result"),
        error_messages={
            "max_length": NOT_A_RESULT,
            "required": _("No result: nothing was entered. Type the table, Enter, then the result."),
        },
    )
    version = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    confirm = forms.BooleanField(required=False)
    keep = forms.BooleanField(required=False)


class GamesForm(forms.Form):
    """The “other…” result: any game counts, or a double loss."""

    games_a = forms.IntegerField(min_value=0, max_value=9, required=False, label=_("Games won by A"))
    games_b = forms.IntegerField(min_value=0, max_value=9, required=False, label=_("Games won by B"))
    games_drawn = forms.IntegerField(min_value=0, max_value=9, required=False, label=_("Games drawn"))
    double_loss = forms.BooleanField(required=False, label=_("Double loss (both players lose)"))
    forfeit = forms.ChoiceField(
        required=False,
        label=_("Forfeit"),
        choices=[
            ("", _("No: the games above")),
            ("a", _("A wins by forfeit (+/−)")),
            ("b", _("B wins by forfeit (−/+)")),
        ],
    )
    version = version_field()
    confirm = forms.BooleanField(required=False)
    # A chess game's result, White's first, instead of game counts "won by A/B" (`chess=True`).
    CHESS_CHOICES = {"1-0": (1, 0, 0), "0-0-1": (0, 0, 1), "0-1": (0, 1, 0)}
    chess_result = forms.ChoiceField(required=False, label=_("Result"), widget=forms.RadioSelect, choices=[])

    def __init__(self, *args, chess: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.chess = chess
        if chess:
            self.fields["chess_result"].choices = [
                ("1-0", _("White won 1-0")),
                ("0-0-1", game_words.gettext_lazy("Draw %(score)s") % {"score": "½-½"}),
                ("0-1", _("Black won 0-1")),
            ]
            self.fields["forfeit"].choices = [
                ("", _("No: the result above")),
                ("a", _("White wins by forfeit (+/−)")),
                ("b", _("Black wins by forfeit (−/+)")),
            ]
            self.fields["double_loss"].label = _("Both lose (double forfeit −/−)")
            counts = tuple(self.initial.get(k) for k in ("games_a", "games_b", "games_drawn"))
            chosen = {v: k for k, v in self.CHESS_CHOICES.items()}.get(counts)
            if chosen and "chess_result" not in self.initial:
                self.initial["chess_result"] = chosen

    def outcome(self):
        d = self.cleaned_data
        games = (d.get("games_a"), d.get("games_b"), d.get("games_drawn"))
        if self.chess and d.get("chess_result"):
            games = self.CHESS_CHOICES[d["chess_result"]]
        return outcome_from_games(*games, d["double_loss"], d.get("forfeit", ""))


class ClockForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in ("start", "restart", "pause", "resume", "add")])
    minutes = forms.IntegerField(required=False, min_value=-60, max_value=120)
