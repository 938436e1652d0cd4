import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_cache():
    """Every browser test starts with an empty cache: a page rendered by an earlier test is never served."""
    cache.clear()
