"""Compile the translation catalogs (locale/*/LC_MESSAGES/django.po -> .mo) in pure Python.

GNU gettext's msgfmt is not on every machine, and `make run` must work on a fresh one: polib writes
the same binary catalog. Only files whose content changes are written, so it is cheap to run before
every server start and test session. Fuzzy and untranslated entries are left out, as msgfmt does.
"""

from pathlib import Path

import polib


def catalogs(base: Path) -> list[Path]:
    return sorted(base.glob("locale/*/LC_MESSAGES/*.po"))


def compiled(po_path: Path) -> bytes:
    return polib.pofile(str(po_path), wrapwidth=0).to_binary()


def compile_catalogs(base: Path) -> list[Path]:
    """Write every stale or missing .mo under `base`/locale; returns the ones written."""
    written = []
    for po_path in catalogs(base):
        mo_path = po_path.with_suffix(".mo")
        data = compiled(po_path)
        if not mo_path.exists() or mo_path.read_bytes() != data:
            mo_path.write_bytes(data)
            written.append(mo_path)
    return written
