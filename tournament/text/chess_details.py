"""A chess player's registration details as a FIDE rating report carries them (the TRF player line): how each is
stored, and what is wrong with one as typed, in the reader's language."""

import re
import unicodedata

from django.utils.translation import get_language, gettext, gettext_lazy

from swiss.model import possible_birth_date

# The registration details a FIDE rating report carries (the TRF player line), optional, for chess events.
CHESS_FIELDS = ("fide_id", "federation", "title", "sex", "birth_date")
FIDE_TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
_CHESS_FORMS = {
    "fide_id": (re.compile(r"[0-9]{1,11}"), gettext_lazy("A FIDE ID is up to 11 digits.")),
    "federation": (re.compile(r"[A-Z]{3}"), gettext_lazy("A federation is a three-letter FIDE code such as GER.")),
    "title": (
        re.compile("|".join(FIDE_TITLES)),
        gettext_lazy("A title is one of GM, IM, FM, CM, WGM, WIM, WFM, WCM."),
    ),
    "sex": (re.compile(r"[mw]"), gettext_lazy("Sex is m or w.")),
    "birth_date": (
        re.compile(r"[0-9]{4}(/[0-9]{2}/[0-9]{2})?"),
        gettext_lazy("Write a birth date as 1969/12/06 or 1969-12-06, or the year alone (1969)."),
    ),
}


# A date written day first, as Danes write a birth date: 06-12-1969, 6.12.1969, 6/12/1969.
_DAY_FIRST = re.compile(r"([0-9]{1,2})\s*[-./]\s*([0-9]{1,2})\s*[-./]\s*([0-9]{4})")
# A date written year first, with or without leading zeros, as Japanese Excel writes one (1998/3/3), as ISO does
# (1998-03-03), and in Japanese (1998年3月3日).
_YEAR_FIRST = re.compile(r"([0-9]{4})\s*(?:[-./]|年)\s*([0-9]{1,2})\s*(?:[-./]|月)\s*([0-9]{1,2})\s*日?")
# Sex as each language writes it, to FIDE's m and w (f is read as w, as in a TRF); Danish k is kvinde.
_SEXES = {"m": "m", "w": "w", "f": "w"}
_DANISH_SEXES = {**_SEXES, "k": "w"}


def chess_detail(key: str, value: str) -> tuple[str, str]:
    """A chess detail as stored (federation and title in capitals, sex as FIDE's m or w, a birth date as
    1969/12/06), and what is wrong with it ("" when nothing): every detail is optional. A birth date is read
    year first as spreadsheets write it (1969/12/6, 1969-12-06, 1969年12月6日); in Danish also day first
    (06-12-1969, 6.12.1969), and a woman k (kvinde); a date no calendar has (1969-02-30) is refused in every
    language."""
    value = value.strip()
    danish = (get_language() or "").startswith("da")
    if key == "sex":
        value = (_DANISH_SEXES if danish else _SEXES).get(value.lower(), value.lower())
    elif key in ("federation", "title"):
        value = value.upper()
    elif key == "birth_date":
        value = unicodedata.normalize("NFKC", value)  # full-width digits and slashes (１９９８／３／３)
        day_first = _DAY_FIRST.fullmatch(value) if danish else None
        year_first = _YEAR_FIRST.fullmatch(value)
        if day_first:
            value = f"{day_first[3]}/{int(day_first[2]):02d}/{int(day_first[1]):02d}"
        elif year_first:
            value = f"{year_first[1]}/{int(year_first[2]):02d}/{int(year_first[3]):02d}"
        elif value.endswith("年") and value[:-1].strip().isdecimal():
            value = value[:-1].strip()
    form, problem = _CHESS_FORMS[key]
    if value and not form.fullmatch(value):
        return value, str(problem)
    if key == "birth_date" and value and not possible_birth_date(value):
        return value, gettext("There is no date %(date)s.") % {"date": value}
    return value, ""
