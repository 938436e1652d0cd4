"""The engines stay pure: no Django anywhere in pairing/ or standings/ (docs/code-map.md)."""

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


# The app's layers (docs/code-map.md: Layers): a lower layer never imports a higher one. Views and urls sit on top;
# services under them; text (words) and files (formats) under services; models and the engines below all.
HIGHER = {
    "services": ("tournament.views", "tournament.urls", "tournament.forms"),
    "text": ("tournament.views", "tournament.urls", "tournament.forms", "tournament.services"),
    "files": ("tournament.views", "tournament.urls", "tournament.forms", "tournament.services"),
}


def imported_modules(path: Path, package: str) -> list[tuple[int, str]]:
    """Every module a file imports, relative imports resolved against `package`, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found += [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return found


@pytest.mark.parametrize("layer", sorted(HIGHER))
def test_a_layer_never_imports_a_higher_one(layer):
    folder = ROOT / "tournament" / layer
    modules = sorted(folder.rglob("*.py"))
    assert modules, f"tournament/{layer}/ has no modules"
    offenders = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in modules
        for line, name in imported_modules(path, f"tournament.{layer}")
        if name.startswith(HIGHER[layer])
    ]
    assert offenders == []


def test_the_layer_guard_sees_every_kind_of_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import tournament.views.public\nfrom tournament import services\nfrom ..views import pages\n")
    names = [name for _, name in imported_modules(sample, "tournament.text")]
    assert names == ["tournament.views.public", "tournament.services", "tournament.views.pages"]
    assert all(n.startswith(HIGHER["text"]) for n in names)


@pytest.mark.parametrize("package", ["views", "urls", "services", "text", "files"])
def test_each_package_says_what_lives_there(package):
    doc = ast.get_docstring(ast.parse((ROOT / "tournament" / package / "__init__.py").read_text(encoding="utf-8")))
    assert doc and len(doc) > 60


def test_no_module_grows_into_a_drawer():
    """A module past about 700 lines holds several areas: split it by audience or workflow (models may stay one)."""
    long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "tournament").rglob("*.py")
        if "migrations" not in p.parts
        and p.name != "models.py"
        and (n := len(p.read_text(encoding="utf-8").splitlines())) > 750
    }
    assert long == {}
