"""The translation catalogs are complete and current (docs/languages.md).

- every message of the Japanese and Danish catalogs is translated (no empty, no fuzzy entry, every
  plural form), with the same placeholders as its English original;
- every string marked in the code and templates is in the catalogs (extraction run afresh on a copy
  of the sources and compared), and the catalogs hold nothing that is no longer marked;
- the compiled catalogs are those of their sources.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from tournament.text.catalogs import catalogs, compiled

ROOT = Path(__file__).resolve().parents[3]
TRANSLATED = ("ja", "da")
LANGS = ("en", *TRANSLATED)
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdifr]|%[sdif]|\{\w*\}")


def catalog(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"), wrapwidth=0)


def keys(po: polib.POFile) -> set[tuple[str | None, str, str | None]]:
    return {(e.msgctxt, e.msgid, e.msgid_plural or None) for e in po if not e.obsolete}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(language):
    po = catalog(language)
    assert len(po) > 0
    problems = []
    for e in po:
        if e.obsolete:
            problems.append(f"obsolete: {e.msgid!r}")
        elif "fuzzy" in e.flags:
            problems.append(f"fuzzy: {e.msgid!r}")
        elif e.msgid_plural:
            if not e.msgstr_plural or any(not s.strip() for s in e.msgstr_plural.values()):
                problems.append(f"untranslated plural: {e.msgid!r}")
        elif not e.msgstr.strip():
            problems.append(f"untranslated: {e.msgid!r}")
    assert not problems, f"locale/{language}: " + "; ".join(problems)


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_their_placeholders(language):
    problems = []
    for e in catalog(language):
        if e.obsolete or "fuzzy" in e.flags:
            continue
        wanted = sorted(PLACEHOLDER.findall(e.msgid_plural or e.msgid))
        either = set(PLACEHOLDER.findall(e.msgid)) | set(PLACEHOLDER.findall(e.msgid_plural or ""))
        translations = e.msgstr_plural.values() if e.msgid_plural else [e.msgstr]
        for text in translations:
            # A plural form may use any of the singular's and plural's placeholders, never a new one.
            got = sorted(PLACEHOLDER.findall(text))
            if (got != wanted) if not e.msgid_plural else not set(got) <= either:
                problems.append(f"{e.msgid!r}: {wanted} vs {text!r}")
    assert not problems, f"locale/{language}: " + "; ".join(problems)


def test_the_three_catalogs_hold_the_same_messages():
    en = keys(catalog("en"))
    for language in TRANSLATED:
        assert keys(catalog(language)) == en, language


def test_compiled_catalogs_are_built_from_their_sources():
    sources = catalogs(ROOT)
    assert {p.parent.parent.name for p in sources} == set(LANGS)
    for po_path in sources:
        mo_path = po_path.with_suffix(".mo")
        assert mo_path.exists() and mo_path.read_bytes() == compiled(po_path), f"{mo_path}: run `make catalogs`"


def test_every_marked_string_is_in_the_catalogs(tmp_path):
    """`make messages` run on a copy of the sources finds exactly the catalogs' messages."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        if os.environ.get("CI"):
            pytest.fail("GNU gettext is needed to check the catalogs (apt-get install gettext)")
        pytest.skip("GNU gettext (xgettext) is not installed: apt-get install gettext")
    for name in ("tournament", "swiss", "pairing", "standings", "templates", "locale"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.copy(ROOT / "manage.py", tmp_path)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings"}
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            *(f"-l{lang}" for lang in LANGS),
            "--no-location",
            "--no-obsolete",
        ],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    for language in LANGS:
        fresh = keys(polib.pofile(str(tmp_path / "locale" / language / "LC_MESSAGES" / "django.po")))
        committed = keys(catalog(language))
        missing = sorted(m for _, m, _ in fresh - committed)
        stale = sorted(m for _, m, _ in committed - fresh)
        assert not missing, f"locale/{language} lacks marked strings (run `make messages`): {missing}"
        assert not stale, f"locale/{language} holds strings no longer marked (run `make messages`): {stale}"
