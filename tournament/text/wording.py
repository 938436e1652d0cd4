"""Sentences for organisers: the engines and the audit log keep codes and figures, this says them in words
(in the reader's language)."""

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, npgettext_lazy, pgettext_lazy

from swiss.tiebreakers import heading
from tournament.models import Event, EventLog, EventRole, Match
from tournament.text import game_words, l10n
from tournament.text.names import Names
from tournament.text.results import result_word

# Words a chess player says otherwise: in Danish remis (not uafgjort), partier (not kampe) and oversidder
# (not BYE). Each is a second translation of the message in the context "chess", which a chess event's
# pages read instead of the first (`game_words`); where a language says the same, it is the same.
CHESS_WORDS = (
    pgettext_lazy("chess", "Bye"),
    pgettext_lazy("chess", "BYE"),
    pgettext_lazy("chess", "bye"),
    pgettext_lazy("chess", "Byes"),
    pgettext_lazy("chess", "Bye (awarded)"),
    pgettext_lazy("chess", "Pre-awarded byes"),
    pgettext_lazy("chess", "Half-point bye"),
    pgettext_lazy("chess", "Full-point bye"),
    pgettext_lazy("chess", "Zero-point bye"),
    pgettext_lazy("chess", "Draw"),
    pgettext_lazy("chess", "Drawn"),
    pgettext_lazy("chess", "draw %(score)s"),
    pgettext_lazy("chess", "Draw %(score)s"),
    pgettext_lazy("chess", "If you draw"),
    pgettext_lazy("chess", "%(score)s, a draw"),
    pgettext_lazy("chess", "Points for a draw"),
    pgettext_lazy("chess", "Match"),
    pgettext_lazy("chess", "Matches"),
    pgettext_lazy("chess", "All matches"),
    pgettext_lazy("chess", "No matches yet."),
    pgettext_lazy("chess", "Matches of %(name)s, round by round"),
    pgettext_lazy("chess", "one game"),
    pgettext_lazy("chess", "One game"),
    pgettext_lazy("chess", "No matches."),
    pgettext_lazy("chess", "That is not your match."),
    pgettext_lazy("chess", "That match has no result to correct yet."),
    pgettext_lazy("chess", "Round %(number)s is not the round being played: report only this round's match."),
    pgettext_lazy(
        "chess", "The report on your match changed since your page was shown: read it again before you confirm."
    ),
    pgettext_lazy(
        "chess",
        "This match has a result. Changing it updates the standings; the pairings already published stay as they "
        "are. The change is logged with your name.",
    ),
    pgettext_lazy(
        "chess",
        "This player has been paired, so their matches belong to their opponents’ records too: drop them instead.",
    ),
    pgettext_lazy("chess", "To report this match, type the code on your player card."),
    npgettext_lazy(
        "chess",
        "%(players)s: after %(rounds)s round at most one player has won every match.",
        "%(players)s: after %(rounds)s rounds at most one player has won every match.",
        "rounds",
    ),
    pgettext_lazy("chess", "Games per match"),
    pgettext_lazy("chess", "Games per match (best of)"),
    pgettext_lazy("chess", "games per match"),
    pgettext_lazy("chess", "a draw, %(score)s"),
    pgettext_lazy("chess", "a draw, %(score)s, with %(name)s"),
    pgettext_lazy("chess", "points for a draw"),
    pgettext_lazy("chess", "A win must score more than a loss, and a draw between the two."),
    # Byes: a Danish chess player's oversidder.
    # why two players are not paired together (engine_text: not_in_round, bye, and the rules of the bye)
    pgettext_lazy("chess", "%(player)s is not paired in round %(round)s (absent, or holding a pre-awarded bye)"),
    pgettext_lazy("chess", "second byes"),
    pgettext_lazy("chess", "the players ranked below the bye"),
    pgettext_lazy("chess", "C.5, the score of the bye"),
    pgettext_lazy("chess", "C.9, the unplayed games of the bye"),
    pgettext_lazy(
        "chess",
        "%(player)s has this round's bye: a round pairing %(a)s with %(b)s is worse by %(rule)s in the bracket "
        "of score %(bracket)s (%(this_round)s in this round, %(with_pair)s with the pair)",
    ),
    pgettext_lazy(
        "chess",
        "%(player)s has this round's bye: a round pairing %(a)s with %(b)s is worse by %(rule)s "
        "(%(this_round)s in this round, %(with_pair)s with the pair)",
    ),
    pgettext_lazy("chess", "%(first)s and %(second)s both have a bye: swapping them changes nothing."),
    pgettext_lazy("chess", "%(name)s plays round %(number)s: no bye."),
    npgettext_lazy(
        "chess",
        "%(player)s gets a bye again, having had %(byes)s bye (%(reason)s).",
        "%(player)s gets a bye again, having had %(byes)s byes (%(reason)s).",
        "byes",
    ),
    pgettext_lazy("chess", "%(player)s holds a pre-awarded bye this round; it cannot be swapped"),
    pgettext_lazy("chess", "%(player)s holds a pre-awarded bye this round; they cannot be swapped."),
    npgettext_lazy(
        "chess",
        "%(player)s would get a bye again, having had %(byes)s bye",
        "%(player)s would get a bye again, having had %(byes)s byes",
        "byes",
    ),
    npgettext_lazy(
        "chess",
        "%(players)s; %(byes)s of them starts with byes, which already count as wins, so the event is sized "
        "as for %(counted)s players",
        "%(players)s; %(byes)s of them start with byes, which already count as wins, so the event is sized "
        "as for %(counted)s players",
        "byes",
    ),
    pgettext_lazy("chess", "0-point bye"),
    pgettext_lazy("chess", "0-point bye (absent)"),
    pgettext_lazy("chess", "0–3: byes in rounds 1 to that number."),
    pgettext_lazy("chess", "1-point bye"),
    pgettext_lazy("chess", "½-point bye"),
    pgettext_lazy("chess", "A bye has no result to report."),
    pgettext_lazy("chess", "A bye or unpaired loss has no result to enter."),
    pgettext_lazy("chess", "Ask for a bye"),
    pgettext_lazy("chess", "At most 3 pre-awarded byes."),
    pgettext_lazy("chess", "Byes are requested at the desk in this event."),
    pgettext_lazy("chess", "Choose a ½-point bye or a 0-point bye."),
    pgettext_lazy("chess", "No bye (withdraw the request)"),
    pgettext_lazy("chess", "Players may ask for a bye from their phones"),
    pgettext_lazy("chess", "Pre-awarded byes: byes in rounds 1..k."),
    pgettext_lazy("chess", "Rating of a bye (rating sum)"),
    pgettext_lazy("chess", "Requested byes"),
    pgettext_lazy("chess", "Requested byes in round %(number)s (not paired):"),
    pgettext_lazy("chess", "Round %(number)s is already paired: a bye is asked for a round not yet paired."),
    pgettext_lazy("chess", "Save bye"),
    pgettext_lazy("chess", "Second bye: %(player)s has had a bye before."),
    pgettext_lazy(
        "chess",
        "The bye goes to the lowest-ranked player who has not had one: %(name)s, who entered late (in round "
        "%(joined)s, with losses for the rounds before).",
    ),
    pgettext_lazy(
        "chess",
        "The bye goes to the lowest-ranked player who has not had one: %(name)s, who entered late (in round "
        "%(joined)s, with no record for the rounds before).",
    ),
    pgettext_lazy("chess", "The bye goes to the lowest-ranked player who has not had one: %(name)s."),
    pgettext_lazy("chess", "You have a bye this round"),
    pgettext_lazy("chess", "byes"),
    pgettext_lazy("chess", "giving it to a player without one would force a rematch"),
    pgettext_lazy("chess", "Bye: %(because)s."),
    pgettext_lazy("chess", "The bye goes to %(player_name)s."),
    pgettext_lazy(
        "chess",
        "This group could make more pairs (%(most)s) but makes %(pairs)s, so that the rest of the round can be paired and the bye go to a player who may have it (C.4, C.5).",
    ),
    pgettext_lazy(
        "chess",
        "Players move down from here because the round's pairing has the fewest rematches and second byes, then the smallest sum of squared point differences (%(spread)s).",
    ),
    pgettext_lazy(
        "chess",
        "every pairing giving it to a player ranked below has more rematches or second byes or a larger sum of squared point differences",
    ),
    pgettext_lazy(
        "chess",
        "the lowest-ranked player who may have it: everyone ranked below (%(below)s) has had a bye or may not have one",
    ),
    pgettext_lazy("chess", "round one by rating: the lowest-rated player who has not had a bye"),
    pgettext_lazy("chess", "a pre-awarded bye"),
    pgettext_lazy(
        "chess",
        "of all pairings with the fewest rematches and second byes, this one has the smallest sum of squared point differences (%(spread)s, the bye counted against the lowest score)",
    ),
    pgettext_lazy(
        "chess",
        "the %(group)s group could have made more pairs (%(most)s, not %(pairs)s), but that would leave the rest of the round unpairable or the bye to a player who may not have it (C.4, C.5)",
    ),
)


def recommendation_text(rec, together: list[str] = ()) -> str:
    """Why the recommended number of rounds, in plain words; `together` names the sections whose players are
    counted with the section's own (divisions paired together)."""
    text = _recommendation_text(rec)
    if together:
        text += l10n.gap() + _("Counted with %(sections)s: their players will be paired with this section’s.") % {
            "sections": l10n.join(together)
        }
    return text


def _recommendation_text(rec) -> str:
    players = ngettext("%(n)s player", "%(n)s players", rec.players) % {"n": rec.players}
    if rec.with_byes:
        players = game_words.ngettext(
            "%(players)s; %(byes)s of them starts with byes, which already count as wins, so the event is sized "
            "as for %(counted)s players",
            "%(players)s; %(byes)s of them start with byes, which already count as wins, so the event is sized "
            "as for %(counted)s players",
            rec.with_byes,
        ) % {"players": players, "byes": rec.with_byes, "counted": rec.counted}
    if rec.rule == "mtr_single_elimination":
        return _("%(players)s: for 8 players or fewer the Magic Tournament Rules recommend a knockout bracket.") % {
            "players": players
        }
    if rec.rule == "mtr":
        text = _("%(players)s: this is what the Magic Tournament Rules recommend for an event of this size.") % {
            "players": players
        }
        if rec.counted <= 16:
            text += l10n.gap() + _("For a booster draft: 4 rounds and a top 8.")
        return text
    if rec.rule == "pokemon":
        return _(
            "%(players)s: this is what the Play! Pokémon Tournament Rules Handbook recommends for this attendance."
        ) % {"players": players}
    if rec.rule == "unbeaten":
        return game_words.ngettext(
            "%(players)s: after %(rounds)s round at most one player has won every match.",
            "%(players)s: after %(rounds)s rounds at most one player has won every match.",
            rec.rounds,
        ) % {"players": players, "rounds": rec.rounds}
    return _("%(players)s: nothing to pair yet.") % {"players": players}


SETTING_WORDS = {
    "preset": gettext_lazy("the preset"),
    "win_points": gettext_lazy("points for a win"),
    "draw_points": game_words.gettext_lazy("points for a draw"),
    "loss_points": gettext_lazy("points for a loss"),
    "best_of": game_words.gettext_lazy("games per match"),
    "floor": gettext_lazy("the percentage floor"),
    "tiebreakers": gettext_lazy("the tie-breakers"),
    "rating_breaks_ties": gettext_lazy("breaking ties by rating"),
    "tiebreak_rules": gettext_lazy("the FIDE tie-break regulations"),
    "date": gettext_lazy("the date (which changes the FIDE rules the event follows)"),
}


def log_sentence(entry, name_of, match_names: dict) -> str:
    """One line of "Recent actions". `name_of(key)` names a player from the key the log stored;
    `match_names[(round, table)]` names the two players of a table."""
    d = entry.detail or {}
    rnd, table = d.get("round"), d.get("table")
    player = d.get("name") or (name_of(d["player"]) if d.get("player") else _("a player"))
    action = entry.action
    if action == "pair":
        return _("Paired round %(round)s as a draft.") % {"round": rnd}
    if action == "repair":
        return _("Paired round %(round)s again.") % {"round": rnd}
    if action == "publish":
        return _("Published round %(round)s.") % {"round": rnd}
    if action == "swap":
        first, second = (name_of(k) for k in (d.get("players") or ["", ""])[:2])
        text = _("Swapped %(first)s and %(second)s in round %(round)s.") % {
            "first": first,
            "second": second,
            "round": rnd,
        }
        text += " " + _("It made a rematch.") if d.get("rematches") else ""
        return text + (" " + _("It broke a FIDE colour rule.") if d.get("colour_breaks") else "")
    if action == "flip_colours":
        text = _("Flipped the colours of table %(table)s in round %(round)s.") % {"table": table, "round": rnd}
        return text + (" " + _("It broke a FIDE colour rule.") if d.get("colour_breaks") else "")
    if action == "correct_result":
        pair = match_names.get((rnd, table))
        if pair:
            return _("Corrected the result of table %(table)s in round %(round)s (%(players)s).") % {
                "table": table,
                "round": rnd,
                "players": pair,
            }
        return _("Corrected the result of table %(table)s in round %(round)s.") % {"table": table, "round": rnd}
    if action == "drop":
        if not d.get("after_round"):
            return _("%(player)s dropped before round 1.") % {"player": player}
        return _("%(player)s dropped after round %(round)s.") % {"player": player, "round": d["after_round"]}
    if action == "undrop":
        return _("%(player)s is back in the event.") % {"player": player}
    if action == "delete_player":
        return _("Deleted the registration of %(player)s.") % {"player": player}
    if action in ("divisions_joined", "divisions_join"):
        # Divisions paired together (services/divisions.py): logged in both sections.
        return _("The players of %(section)s joined %(partner)s, each section a division of one Swiss.") % {
            "section": d.get("section", ""),
            "partner": d.get("partner", ""),
        }
    if action == "top_cut":
        return _("Started the top %(size)s.") % {"size": d.get("size")}
    if action == "bracket":
        return _("Paired the next top-cut round (round %(round)s).") % {"round": rnd}
    if action == "undo_top_cut":
        return _("Undid the top %(size)s.") % {"size": d.get("size")}
    if action == "day2_cut":
        return _("Made the Day-2 cut after round %(round)s (Day 2: %(made)s, cut: %(cut)s).") % {
            "round": rnd,
            "made": d.get("made"),
            "cut": d.get("cut"),
        }
    if action == "warning":  # FIDE mode (services/warnings.py): the sentence as the arbiter read it
        if not d.get("level"):
            return _("Recorded for the TRF file: %(line)s") % {"line": d.get("trf", "")}
        return _("Passed at level %(level)s: %(text)s") % {"level": d.get("level"), "text": d.get("text", "")}
    if action == "fide_mode":
        return _("Turned FIDE mode on.")
    if action == "adjourn":
        if d.get("tables"):
            return _("Recorded the games still playing in round %(round)s as adjourned (tables %(tables)s).") % {
                "round": rnd,
                "tables": l10n.join(str(t) for t in d["tables"]),
            }
        return _("Recorded table %(table)s of round %(round)s as adjourned.") % {"table": table, "round": rnd}
    if action == "manual_start":
        return _("Started editing round %(round)s by hand.") % {"round": rnd}
    if action == "manual_validate":
        return _("Validated the pairings of round %(round)s.") % {"round": rnd}
    if action in ("forbidden_pair", "forbidden_pair_removed"):
        first, second = (name_of(k) for k in (d.get("players") or ["", ""])[:2])
        if d.get("rounds"):  # a pair kept apart in some rounds only
            params = {"first": first, "second": second, "from": d["rounds"][0], "to": d["rounds"][-1]}
            if params["from"] == params["to"]:
                if action == "forbidden_pair":
                    return _("Forbade pairing %(first)s with %(second)s in round %(from)s.") % params
                return _("Allowed pairing %(first)s with %(second)s in round %(from)s again.") % params
            if action == "forbidden_pair":
                return _("Forbade pairing %(first)s with %(second)s in rounds %(from)s–%(to)s.") % params
            return _("Allowed pairing %(first)s with %(second)s in rounds %(from)s–%(to)s again.") % params
        if action == "forbidden_pair":
            return _("Forbade pairing %(first)s with %(second)s.") % {"first": first, "second": second}
        return _("Allowed pairing %(first)s with %(second)s again.") % {"first": first, "second": second}
    if action == "settings_after_pairing":
        fields = l10n.join(str(SETTING_WORDS.get(f, heading(f))) for f in d.get("fields", []))
        return _("Changed %(fields)s after rounds were paired.") % {"fields": fields}
    user, role = d.get("user"), role_label(d.get("role"))
    if action == "staff_add":
        return _("Gave %(user)s the role %(role)s.") % {"user": user, "role": role}
    if action == "staff_invite":
        return _("Invited %(user)s as %(role)s.") % {"user": user, "role": role}
    if action == "staff_join":
        return _("%(user)s took up the invitation as %(role)s.") % {"user": user, "role": role}
    if action == "staff_invite_withdrawn":
        return _("Withdrew the invitation of %(user)s.") % {"user": user}
    if action == "staff_remove":
        return _("Removed %(user)s from the event's staff.") % {"user": user}
    if action == "reissue_link":
        return _("Gave %(player)s a new personal link; the old link and code no longer work.") % {"player": player}
    if action == "reporting":
        return _("Results are now entered as follows: %(mode)s.") % {"mode": reporting_label(d.get("mode"))}
    if action == "open_reporting":
        return _("Players may report round %(round)s again.") % {"round": rnd}
    if action == "close_reporting":
        return _("Closed players' reporting for round %(round)s.") % {"round": rnd}
    if action == "dispute":
        return _("%(player)s disputes the result reported at table %(table)s in round %(round)s.") % {
            "player": player,
            "table": table,
            "round": rnd,
        }
    if action == "request_bye":
        bye = result_word(d["kind"]) if d.get("kind") in Match.Result.values else game_words.gettext("bye")
        return _("%(player)s: %(bye)s requested for round %(round)s.") % {"player": player, "bye": bye, "round": rnd}
    if action == "withdraw_bye":
        return _("%(player)s no longer asks for a bye in round %(round)s.") % {"player": player, "round": rnd}
    if action.startswith("section_"):
        return _section_sentence(action, d, player)
    # An action this version does not know (logged by a newer one): its code, as the log keeps it.
    return _("Logged: %(action)s.") % {"action": action}


def _section_sentence(action: str, d: dict, player: str) -> str:
    """The log's sentences about sections (docs/sections.md)."""
    section, to, was = d.get("section", ""), d.get("to", ""), d.get("from", "")
    if action == "section_add":
        return _("Added the section “%(section)s”.") % {"section": section}
    if action == "section_rules":
        return _("Changed the placement rules or tables of “%(section)s”.") % {"section": section}
    if action == "section_place":
        return _("Placed %(count)s players by the rules.") % {"count": d.get("count", 0)}
    if action == "section_move" and was:
        return _("Moved %(player)s from “%(from)s” to “%(to)s”.") % {"player": player, "from": was, "to": to}
    if action == "section_move":
        return _("Placed %(player)s in “%(to)s”.") % {"player": player, "to": to}
    return _("Withdrew %(player)s from “%(from)s” and entered them again in “%(to)s” as #%(number)s.") % {
        "player": player,
        "from": was,
        "to": to,
        "number": d.get("new_number", ""),
    }


def role_label(code) -> str:
    return str(EventRole.Role(code).label) if code in EventRole.Role.values else str(code or "")


def reporting_label(code) -> str:
    return str(Event.Reporting(code).label) if code in Event.Reporting.values else str(code or "")


def recent_actions(event, limit: int = 10) -> list[tuple[object, str]]:
    """The latest audit-log entries of the event with their sentences (three queries)."""
    entries = list(EventLog.objects.filter(event=event).select_related("by")[:limit])
    names = Names.of(event.pk)
    tables = {(e.detail.get("round"), e.detail.get("table")) for e in entries if e.action == "correct_result"}
    match_names = {}
    if tables:
        wanted = Q()
        for rnd, table in tables:
            wanted |= Q(round__number=rnd, table=table)
        for m in Match.objects.filter(wanted, round__event=event).select_related("round", "player_a", "player_b"):
            b = names.label(m.player_b) if m.player_b else game_words.gettext("bye")
            match_names[(m.round.number, m.table)] = _("%(a)s v %(b)s") % {"a": names.label(m.player_a), "b": b}

    def name_of(key: str) -> str:
        return names.label(key) if key in names.by_key else _("a player no longer registered")

    return [(e, log_sentence(e, name_of, match_names)) for e in entries]
