import pytest

from tests.factories import make_user


@pytest.fixture
def people():
    """Players who never let the service play a forced card for them (games finish by real moves)."""
    return [make_user(allow_forced_moves=False) for _ in range(6)]
