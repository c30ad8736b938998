"""The /odds page and its data, without a browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import until
from devserver import with_client
from gnav.odds.docs import load
from gnav.web.odds import shipped
from server_kit import TestClient, make_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(with_client(make_app(tmp_path, odds_dir=str(tmp_path / "odds")))) as c:
        yield c


def test_the_page_is_its_own_with_a_strict_policy(client: TestClient) -> None:
    r = client.get("/odds")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/js/odds.js">' in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert client.get("/static/js/odds.js").status_code == 200
    assert client.get("/static/css/odds.css").status_code == 200


def test_the_index_lists_what_ships_and_each_table_is_served(client: TestClient) -> None:
    index = client.get("/api/odds").json()
    listed = {p["preset"]: p["sizes"] for p in index["presets"] if p["sizes"]}
    assert listed == shipped() and "gnav" in listed and 3 in listed["gnav"]
    body = client.get("/api/odds?preset=gnav&seats=3").json()
    atlas = load("gnav", 3)
    assert atlas is not None
    assert body["atlas"]["values"] == atlas.as_json()["values"]
    assert body["atlas"]["cells"] == atlas.as_json()["cells"]
    assert set(body["names"]["owl"]) == {"en", "nb", "da"}
    assert body["names"]["12"]["en"] == "XII"
    # One atlas a game (issue 28): gnav-rulebook is listed with gnav's sizes and served
    # gnav's tables, none of its own.
    assert listed["gnav-rulebook"] == listed["gnav"] and load("gnav-rulebook", 3) is None
    same = client.get("/api/odds?preset=gnav-rulebook&seats=3").json()
    assert same["atlas"]["cells"] == body["atlas"]["cells"]


@pytest.mark.parametrize(("query", "status", "words"), [
    ("preset=gnav&seats=5", 404, "5 seats of gnav are not made yet"),
    ("preset=gnav&seats=42", 404, "the odds go from 2 to 41 seats, not 42"),
    ("preset=gnav-summary&seats=2", 404, "played by 3 to 39 people"),
    ("preset=nope&seats=3", 404, "unknown preset"),
    ("preset=gnav&seats=x", 400, "whole number"),
    ("preset=gnav&seats=3&piece=owl", 400, "unknown query parameter"),
])
def test_bad_questions_get_one_line(client: TestClient, query: str, status: int,
                                    words: str) -> None:
    r = client.get(f"/api/odds?{query}")
    assert r.status_code == status
    reason = r.json()["error"]["reason"]
    assert words in reason and "\n" not in reason


def test_every_string_of_the_page_is_in_english_norwegian_and_danish() -> None:
    import re

    source = (Path(__file__).resolve().parents[1] / "src" / "gnav" / "web" / "static" / "js"
              / "odds.js").read_text(encoding="utf-8")
    table = source[source.index("const S = {"):source.index("\n};\n")]
    entries = dict(re.findall(r"^  (\w+): \{(.*?)\},?$", table, re.S | re.M))
    assert len(entries) > 20
    for key, body in entries.items():
        for lang in ("en", "nb", "da"):
            assert re.search(rf"\b{lang}: ", body), (key, lang)
    used = set(re.findall(r'\bword\("(\w+)"', source))
    assert used and used <= set(entries)


def test_every_shipped_table_is_served(client: TestClient) -> None:
    """A simulated table has cells nobody observed: they are served as null (JSON has
    no NaN), never as a server error."""
    for preset, sizes in shipped().items():
        for seats in sizes:
            r = client.get(f"/api/odds?preset={preset}&seats={seats}")
            assert r.status_code == 200, (preset, seats)


def test_the_index_offers_every_size_from_2_to_41_with_the_games_titles(
        client: TestClient) -> None:
    from gnav.presets import PRESETS
    from gnav.rules import Rules
    from gnav.texts.rules import title

    index = client.get("/api/odds").json()["presets"]
    by = {p["preset"]: p for p in index}
    assert by["gnav"]["all"] == list(range(2, 42))
    assert by["hypp"]["all"] == list(range(2, Rules.of("hypp").max_seats + 1))
    assert by["chase-the-ace"]["all"][-1] == 41  # the page stops at 41
    for name, p in by.items():
        assert p["titles"] == {lang: title(PRESETS[name], lang) for lang in ("en", "nb", "da")}
        assert set(p["sizes"]) <= set(p["all"]) and p["made"] == [] and p["make"] is None


def _until_made(client: TestClient, query: str) -> dict[str, Any]:
    """The atlas once made: the server is asked how far it is, as the page asks."""
    seen: list[dict[str, Any]] = []

    def made() -> bool:
        r = client.get(f"/api/odds?{query}")
        assert r.status_code in (200, 202), r.text
        seen.append(r.json())
        return bool(r.status_code == 200)

    until(made, 120, f"the table {query} made")
    return seen[-1]


def test_a_size_that_ships_nothing_is_made_on_demand_once(client: TestClient,
                                                          tmp_path: Path) -> None:
    """2 seats of gnav: exact and cheap. The made table is the one ``gnav odds``
    computes, kept in the odds folder and listed as made."""
    from gnav.odds.source import atlas
    from gnav.rules import Rules

    r = client.post("/api/odds?preset=gnav&seats=2")
    assert r.status_code in (200, 202)
    if r.status_code == 202:
        assert r.json()["making"]["seats"] == 2
    body = _until_made(client, "preset=gnav&seats=2")
    assert body["atlas"] == atlas(Rules.of("gnav"), 2, "expert").as_json()
    assert (tmp_path / "odds" / "gnav-2.json.gz").exists()
    assert not (tmp_path / "odds" / "making.json").exists()
    index = {p["preset"]: p for p in client.get("/api/odds").json()["presets"]}
    assert index["gnav"]["made"] == [2]
    again = client.post("/api/odds?preset=gnav&seats=2")  # made: no second process
    assert again.status_code == 200 and again.json()["atlas"] == body["atlas"]


def test_one_table_is_made_at_a_time(client: TestClient, tmp_path: Path) -> None:
    from gnav.odds.ondemand import take_lock

    assert take_lock(tmp_path / "odds", "gnav", 9)  # another maker holds the machine
    making = client.get("/api/odds?preset=gnav&seats=9")
    assert making.status_code == 202
    assert making.json() == {"making": {"preset": "gnav", "seats": 9, "done": 0, "total": 1}}
    r = client.post("/api/odds?preset=gnav&seats=7")
    assert r.status_code == 503 and r.json()["error"]["code"] == "busy"


def test_making_is_rate_capped_per_address(tmp_path: Path) -> None:
    app = with_client(make_app(tmp_path, odds_dir=str(tmp_path / "odds"),
                               costly_per_minute=10))
    with TestClient(app) as c:
        assert c.post("/api/odds?preset=gnav&seats=42").status_code == 404
        r = c.post("/api/odds?preset=gnav&seats=42")
        assert r.status_code == 429 and "Retry-After" in r.headers
        assert c.get("/api/odds?preset=gnav&seats=3").status_code == 200  # reads are free


def test_without_numpy_the_server_says_why_it_cannot_make_a_table(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import gnav.odds.ondemand as ondemand
    from gnav.web.odds import offered

    monkeypatch.setattr(ondemand, "_installed", lambda *modules: False)
    offered.cache_clear()
    try:
        r = client.post("/api/odds?preset=gnav&seats=7")
        assert r.status_code == 404 and "numpy and numba" in r.json()["error"]["reason"]
        index = {p["preset"]: p for p in client.get("/api/odds").json()["presets"]}
        assert index["gnav"]["make"] == "numpy"
    finally:
        offered.cache_clear()


def test_paying_is_said_in_the_same_words_on_the_page_in_the_coach_and_in_the_docs() -> None:
    """Issue 26: every engine counts a round that ends with fewer lives (a life gained
    back in it makes up for one paid); docs/odds.md, ``gnav odds``, the /odds page and
    the coach say so in one sentence."""
    import re

    from gnav.odds.figures import PAYS

    root = Path(__file__).resolve().parents[1]
    js = root / "src" / "gnav" / "web" / "static" / "js"

    def said(source: str, key: str) -> dict[str, str]:
        found = re.search(rf'{key}: \{{ en: "(.*?)",\s*nb: "(.*?)",\s*da: "(.*?)" \}}',
                          source, re.S)
        assert found is not None, key
        return dict(zip(("en", "nb", "da"), found.groups(), strict=True))

    page = said((js / "odds.js").read_text(encoding="utf-8"), "paysMeans")
    coach = said((js / "i18n.js").read_text(encoding="utf-8"), '"pays.means"')
    assert page == coach and page["en"] == PAYS
    assert PAYS in (root / "docs" / "odds.md").read_text(encoding="utf-8")
    assert "at least one life" not in (root / "docs" / "odds.md").read_text(encoding="utf-8")
