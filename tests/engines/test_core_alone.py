"""The pure core installs and tests without Django: `pip install .` gives the engines and the file tools with their
libraries (rustworkx, networkx), the web app's are the `web` extra, and the engine tests a core-only environment
runs (.ci/core) import nothing of Django or the web app."""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib
from pathlib import Path

from tests.engines.conftest import modules_needing_django, needs_django

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


def test_the_engine_tests_left_out_without_django_are_those_that_import_it():
    """A module that imports Django, or imports a test module that does, is left out where Django is absent."""
    left_out = modules_needing_django()
    # The management commands' tests, and a module that borrows test_eventfile's generator.
    assert {"test_eventfile.py", "test_trf_commands.py", "test_venuefile.py"} <= set(left_out)
    assert not {"test_swiss_tools.py", "test_dutch.py", "test_core_alone.py", "test_matching.py"} & set(left_out)


def test_the_core_only_run_names_no_module_that_needs_django():
    """.ci/core names the engine test modules it runs: none may need Django (it would fail to import there)."""
    named = re.findall(r"tests/engines/(test_\w+\.py)", (ROOT / ".ci" / "core").read_text())
    assert "test_swiss_tools.py" in named and "test_core_alone.py" in named
    assert all((ROOT / "tests" / "engines" / name).exists() for name in named)
    assert not [name for name in named if needs_django(name)]


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

    expected = conftest.modules_needing_django() if importlib.util.find_spec("django") is None else []
    assert conftest.collect_ignore == expected
