"""The pure core installs and tests without Django: `pip install .` gives the engines and the file tools with their
libraries (rustworkx, networkx), the web app's are the `web` extra, and the engine tests a core-only environment
runs (.ci/core) import nothing of Django or the web app."""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib
from pathlib import Path

from tests.engines.conftest import NEED_DJANGO

ROOT = Path(__file__).resolve().parents[2]
WEB = ("django", "tournament", "pytest_django", "time_machine")


def requirement_names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_core_installs_without_the_web_apps_libraries():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = requirement_names(project["dependencies"])
    assert core == {"rustworkx", "networkx", "tzdata"}
    extras = project["optional-dependencies"]
    assert {"django", "psycopg", "gunicorn", "django-tasks"} <= requirement_names(extras["web"])
    # The developer's install (make install, CI) and the image (Dockerfile) have the web app.
    assert "swiss-tournament[web]" in extras["dev"]
    assert 'pip install ".[web]"' in (ROOT / "Dockerfile").read_text()
    assert '-e ".[dev]"' in (ROOT / "Makefile").read_text()


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_the_engine_tests_left_out_without_django_are_those_that_need_it():
    """Every engine test module imports nothing of the web app but those the core-only run leaves out."""
    here = Path(__file__).parent
    for path in sorted(here.glob("test_*.py")):
        needs = imported_roots(path) & set(WEB)
        if path.name in NEED_DJANGO:
            continue
        assert not needs, f"{path.name} imports {needs}: list it in conftest.NEED_DJANGO or import the core only"
    assert all((here / name).exists() for name in NEED_DJANGO)


def test_the_tests_shared_helpers_import_nothing_of_django_at_the_top():
    """tests/conftest.py (whose EXAMPLES the engine tests import) sets Django up only inside its hooks."""
    module = ast.parse((ROOT / "tests" / "conftest.py").read_text())
    top = set()
    for node in module.body:
        if isinstance(node, ast.Import):
            top |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            top.add(node.module.split(".")[0])
    assert not top & set(WEB)


def test_where_django_is_absent_the_modules_that_need_it_are_left_out():
    from tests.engines import conftest

    expected = conftest.NEED_DJANGO if importlib.util.find_spec("django") is None else []
    assert conftest.collect_ignore == expected
