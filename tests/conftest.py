"""Fixtures shared by the server tests: one real redis-server for the session (emptied
before each test that uses it), and the two stores, SQLite and Redis, by URL, so that
one test runs both through the same case."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from gnav.server.sealing import KEY_ENV, key_text, new_key
from redis_kit import RedisServer

if TYPE_CHECKING:
    from gnav.solve.match import MatchSolution, MatchSolver


@pytest.fixture(scope="session", autouse=True)
def servers_key() -> Iterator[str]:
    """The servers' key (``GNAV_KEY``) for every Redis store the tests open, in this
    process and in the servers they start, as for one deployment: no test writes a
    key file into the working directory."""
    with pytest.MonkeyPatch.context() as patch:
        key = key_text(new_key())
        patch.setenv(KEY_ENV, key)
        yield key


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """An empty Redis."""
    with redis_server.client() as client:
        client.flushall()
    return redis_server.url


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each store in turn, empty, as ``gnav serve --store`` names it."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'gnav.sqlite3'}"
    url: str = request.getfixturevalue("redis_url")
    return url


# The solved match of gnav at 2 seats and 2 lives, for the exact checks of lives-keyed
# policies (tests/test_train_exact_match.py, tests/test_train_lives_features.py): two
# fools gaining make lives of 1, 2 and 3 (the cap), every lives class a 2-seat round
# has. Made once a module (a few seconds), imported here only when asked for: the
# solver needs numpy.
@pytest.fixture(scope="module")
def sol() -> MatchSolution:
    from gnav.rules import Rules
    from gnav.solve.match import solve_match

    return solve_match(Rules.of("gnav", lives=2), 2, target=1e-5)


@pytest.fixture(scope="module")
def solver(sol: MatchSolution) -> MatchSolver:
    from gnav.solve.match_export import solver_of

    return solver_of(sol)
