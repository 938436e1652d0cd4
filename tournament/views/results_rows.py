"""What each row of the round's results page says: presentation (words, links and buttons) for the data
`services.results_board` gathers. Built once per page and once per row in Python, not in the template: a
template loop of six buttons per row, and two `reverse()` calls per row, were most of a full list's time."""

from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import gettext as _

from tournament.models import Event, Match, Round
from tournament.services.reports import DISPUTED, STORED, WAITING, status, told
from tournament.services.standings import chess_idents
from tournament.text.names import Names
from tournament.text.results import result_label


class Rows:
    """What each row of the results page says, prepared once per page: names (with the player number when
    two players share a name), the state and the players' versions, the result buttons and their labels.

    `prepare(match)` works on a match whose reports `overview` attached, or reads them (one query) for
    the single row an HTMX answer shows. The result buttons are built here, not in the template: they
    are the same for every row but the table and the chosen one, and a template loop of six buttons per
    row was most of the full list's rendering time.
    """

    def __init__(self, event: Event, rnd: Round, choices: list[tuple[str, str]]):
        self.event, self.round = event, rnd
        self._names: Names | None = None
        self._idents: dict | None = None
        self.choices = choices
        # The match's pages under the round's (tournament/urls/organiser.py): reversed once per page, not
        # twice per row (reverse() was a fifth of the full list's time).
        self.round_url = reverse("org_round", args=[event.slug, rnd.number])
        self.table_label = _("Table %(table)s: %(label)s")
        self.by_phone = _("by %(name)s (phone)")
        self.not_right = _("that's not right")

    @property
    def names(self) -> Names:
        if self._names is None:
            self._names = Names.of(self.event.pk)
        return self._names

    @property
    def idents(self) -> dict:
        """A chess event's start number, title and rating beside each name (`chess_idents`), read once."""
        if self._idents is None:
            self._idents = chess_idents(self.event)
        return self._idents

    def prepare(self, m: Match) -> Match:
        rs = m.report_list if hasattr(m, "report_list") else list(m.reports.all())
        m.state = status(m, rs)
        m.label = result_label(m, self.event.chess_results)
        # Shown in colour order (White first; a forfeit Black won is player A with `white` kept), which is
        # the order the result buttons read (1-0 is White's win).
        first, second = m.colour_order()
        winner = m.winner
        m.won = "" if winner is None else "a" if winner.pk == first.pk else "b"
        m.name_a = self.names.label(first)
        m.name_b = self.names.label(second) if second else ""
        m.ident_a = self.idents.get(first.pk)
        m.ident_b = self.idents.get(second.pk) if second else None
        m.page_url = f"{self.round_url}matches/{m.pk}/"
        m.result_url = f"{m.page_url}result/"
        # Set by the view answering a click; looked up by the template on every row.
        m.error, m.question = getattr(m, "error", None), getattr(m, "question", None)
        m.buttons = format_html_join(
            "",
            '<button type="submit" name="result" value="{}" class="res{}" aria-label="{}">{}</button>',
            (
                (
                    value,
                    " chosen" if value == m.label else "",
                    self.table_label % {"table": m.table, "label": label},
                    label,
                )
                for value, label in self.choices
            ),
        )
        m.entered = ""
        if m.state == STORED and m.player_b_id:
            if m.entered_by_player_id:
                # The player whose report stored it (the one who confirmed, or reported alone).
                reporter = m.name_a if m.entered_by_player_id == m.player_a_id else m.name_b
                m.entered = self.by_phone % {"name": reporter}
            elif m.entered_by_id:
                m.entered = _("by %(name)s") % {"name": m.entered_by.get_username()}
        m.versions = []
        if m.state in (DISPUTED, WAITING):
            for r in rs:
                player = m.player_a if r.player_id == m.player_a_id else m.player_b
                text = self.not_right if r.disputes else told(r.games, r.result, m, self.event.chess_results)
                m.versions.append((player, text))
        return m

    def prepare_all(self, matches: list[Match]) -> list[Match]:
        return [self.prepare(m) for m in matches]
