"""Figures and tie-breaker names as each language writes them (docs/languages.md).

The engines format for the command line (`standings.format`: "55.5556%", "2.5"); pages format here,
in the active language: Danish writes 55,5556 % and 2,5, Japanese and English 55.5556% and 2.5. The
exact figures never change, only their display: every value is the engine's own rounding of the
exact fraction, with the decimal separator and the percent pattern of the language.
"""

import re
from fractions import Fraction

from django.utils.formats import get_format
from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from standings.engine import Value
from standings.format import _decimal, format_number
from swiss.model import Settings, parse_fraction
from swiss.presets import PRESETS
from swiss.rules import C07_2024, C07_2026, c07_edition, c07_named
from swiss.tiebreakers import HEADING_CONTEXT, PERCENTAGES, TIEBREAKERS
from tournament.text.i18n import chess_words, pokemon_words

# The presets' names as people read them (the engine's labels are the English ones).
PRESET_LABELS = {
    "mtg": _("Magic (MTR)"),
    "pokemon": _("Pokémon (TPCi)"),
    "chess": _("Chess (Swiss)"),
    "backgammon": _("Backgammon"),
    "custom": _("Custom"),
}

# Each tie-breaker's column heading (short, as a phone's table has room for) and long name (for the settings
# page), in the active language. The registry holds the English words and marks them for translation.
LABELS = {t.code: pgettext_lazy(HEADING_CONTEXT, t.heading) for t in TIEBREAKERS.values()}
NAMES = {t.code: _(t.name) for t in TIEBREAKERS.values()}


def join_errors(errors) -> str:
    """Several problems of one line in one sentence: "a; b", Japanese 「a、b」."""
    return pgettext("between two problems", "; ").join(str(e) for e in errors)


def gap() -> str:
    """What goes between two sentences, or after a colon before its value: a space, but nothing in Japanese,
    which writes none after 。 or ："""
    return "" if (get_language() or "").startswith("ja") else " "


def join(items) -> str:
    """A list as the active language writes one: "a, b, c"; Japanese 「a、b、c」."""
    return pgettext("list separator", ", ").join(str(i) for i in items)


def clock(seconds: int) -> str:
    """Time left on a round clock as the clock shows it: 49:05, 1:30:00 from an hour, −0:30 once over time
    (static/js/clock.js counts on in the same form)."""
    sign = "−" if seconds < 0 else ""
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}" if hours else f"{sign}{minutes}:{secs:02d}"


def preset_label(code: str) -> str:
    """A preset's name as people read it (the model's choices carry the engine's English one)."""
    preset = PRESETS.get(code)
    return str(PRESET_LABELS.get(code, preset.label if preset else code))


def preset_choices() -> list[tuple[str, str]]:
    """The presets for a form's choice, named as people read them."""
    return [(code, PRESET_LABELS.get(code, p.label)) for code, p in PRESETS.items()]


def label(code: str) -> str:
    return str(LABELS.get(code, code))


def localize(text: str) -> str:
    """An engine-formatted number ("2.5", "-0.25") with the active language's decimal separator."""
    separator = get_format("DECIMAL_SEPARATOR")
    return text.replace(".", separator) if separator != "." else text


def exact(value: Fraction) -> str:
    """A value to type back in a form, in the active language: 0,33 or 1,5 in Danish; "1/3" when no
    decimal writes it exactly (the form reads either)."""
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return str(value)
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    return localize(_decimal(value, places))


def exact_percent(value: Fraction) -> str:
    """A fraction as the percentage a person types: 33/100 is "33%" (Danish "33 %"); 1/3 stays "1/3"."""
    text = exact(value * 100)
    return str(value) if "/" in text else gettext("%(number)s%%") % {"number": text}


def read_fraction(text: str, percent: bool = False) -> Fraction:
    """What a person typed for a score: 3, 0.5 or 0,5, 1/2; for a floor (`percent`) also 33% or 33 %.
    ValueError otherwise."""
    text = text.strip().replace("\u00a0", " ")
    percent = percent and text.endswith("%")
    if percent:
        text = text[:-1].strip()
    if "," in text and "." not in text and "/" not in text:
        text = text.replace(",", ".")
    value = parse_fraction(text)
    return value / 100 if percent else value


# A whole number written with a thousands separator, as each language's spreadsheets write one: 2.105 (Danish),
# 2,105 (English), 2 105 or 2'105; the same separator between every group of three digits.
_GROUPED = re.compile(r"[0-9]{1,3}(?P<sep>[.,' \u00a0\u202f\u2009])[0-9]{3}(?:(?P=sep)[0-9]{3})*")
_WIDE = str.maketrans({chr(0xFF10 + d): str(d) for d in range(10)} | {"．": ".", "，": ",", "\u3000": " "})


def read_whole(text: str, grouped: bool = False) -> int | None:
    """A whole number as a person or a spreadsheet writes it (full-width digits too), or None when it is not one.

    `grouped` also reads a thousands separator (2.105, 2,105, 2 105 are 2105): only for a value that is whole
    by nature (a rating), where 2.105 cannot be two and a bit; 2.1 or 2,10 stay no whole number."""
    plain = text.strip().translate(_WIDE)
    if plain.isascii() and plain.isdecimal():
        return int(plain)
    if grouped and _GROUPED.fullmatch(plain):
        return int(re.sub(r"[^0-9]", "", plain))
    return None


def number(value: Fraction) -> str:
    """Points and other figures: 3, 2.5 (Danish 2,5), at most four decimals."""
    return localize(format_number(value))


def points(value) -> str:
    """A player's points: as `number`, but a chess event's halves as chess writes them, 1½ and ½ (never
    the fraction 3/2, nor 1.5 beside the ½-½ of its results)."""
    value = Fraction(value)
    if chess_words() and value.denominator == 2:
        whole = value.numerator // 2
        return f"{whole}½" if whole else "½"
    return number(value)


def record(wins: int, losses: int, draws: int) -> str:
    """A record as the heading `record_heading` names it: wins-losses-draws, a chess event's wins-draws-losses."""
    return f"{wins}-{draws}-{losses}" if chess_words() else f"{wins}-{losses}-{draws}"


def record_heading() -> tuple[str, str]:
    """(The record's short heading, what it stands for): W-L-D, a chess event's W-D-L (Danish V-R-T), a Pokémon
    event's W-L-T (Pokémon calls a draw a tie)."""
    if chess_words():
        return gettext("W-D-L"), gettext("wins-draws-losses")
    if pokemon_words():
        return gettext("W-L-T"), gettext("wins-losses-ties")
    return gettext("W-L-D"), gettext("wins-losses-draws")


def percent(value: Fraction) -> str:
    """A fraction as a percentage to four decimals: 5/9 is 55.5556% (Danish 55,5556 %)."""
    return gettext("%(number)s%%") % {"number": localize(_decimal(value * 100, 4))}


def value(code: str, v: Value) -> str:
    """One tie-breaker for a page: percentages, vectors as 9/7/5/3, other figures as numbers."""
    if isinstance(v, tuple):
        return "/".join(number(x) for x in v)
    if code in PERCENTAGES:
        return percent(v)
    return number(v)


# Each C.07 edition (swiss.rules) as the pages name it.
TIEBREAK_RULES = {
    C07_2024: _("FIDE tie-break regulations of August 2024"),
    C07_2026: _("FIDE tie-break regulations of March 2026"),
}


def tiebreak_rules(settings: Settings) -> str:
    """The C.07 edition a chess event's standings follow, as a footnote says it: "FIDE tie-break regulations of
    March 2026", with "(the event's choice)" when the event names it rather than its date choosing it."""
    text = str(TIEBREAK_RULES[c07_edition(settings)])
    return gettext("%(rules)s (the event’s choice)") % {"rules": text} if c07_named(settings) else text


def tiebreak_rules_choices() -> list[tuple[str, str]]:
    """The settings page's choices: the edition the event's date gives, or one named."""
    return [("", gettext("The edition in force on the event’s date")), *TIEBREAK_RULES.items()]
