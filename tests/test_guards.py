"""The engines stay pure: no Django anywhere in pairing/ or standings/ (STYLE.md)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("package", ["pairing", "standings"])
def test_engine_never_imports_django(package):
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names if n.split(".")[0] == "django"]
    assert list((ROOT / package).rglob("*.py")), f"{package}/ has no modules"
    assert offenders == []


def test_the_guard_catches_an_import(tmp_path):
    sample = "import os\nfrom django.db import models\n"
    hits = [
        n
        for n in ast.walk(ast.parse(sample))
        if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("django")
    ]
    assert len(hits) == 1
