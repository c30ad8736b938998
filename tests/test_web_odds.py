"""The /odds page and its data, without a browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from devserver import with_client
from gnav.odds.docs import load
from gnav.web.odds import shipped
from server_kit import TestClient, make_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(with_client(make_app(tmp_path))) as c:
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
    listed = {p["preset"]: p["sizes"] for p in index["presets"]}
    assert listed == shipped() and "gnav" in listed and 3 in listed["gnav"]
    body = client.get("/api/odds?preset=gnav&seats=3").json()
    atlas = load("gnav", 3)
    assert atlas is not None
    assert body["atlas"]["values"] == atlas.as_json()["values"]
    assert body["atlas"]["cells"] == atlas.as_json()["cells"]
    assert set(body["names"]["owl"]) == {"en", "nb", "da"}
    assert body["names"]["12"]["en"] == "XII"


@pytest.mark.parametrize(("query", "status", "words"), [
    ("preset=gnav&seats=5", 404, "no atlas for 5 seats"),
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
