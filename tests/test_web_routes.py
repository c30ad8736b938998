"""The client's routes without a browser: the pages and their headers, the static files,
the presets, the rules in words, and a record's replay (with one-line errors)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from devserver import with_client
from gnav.bots.registry import BOT_KINDS
from gnav.options import Options
from gnav.presets import PRESETS
from gnav.record import loads, replay
from gnav.server.openapi import document
from gnav.server.security import new_table_id
from gnav.table.config import LOOKS, SCORES, TableConfig
from gnav.vocab import TEXT_LANGS
from gnav.web import static_routes
from gnav.web.data import presets_text, rules_json, texts_text
from gnav.web.steps import MAX_BYTES, ReplayError, replay_steps
from recordkit import bots_match
from server_kit import TestClient, make_app

STATIC = Path(__file__).resolve().parents[1] / "src" / "gnav" / "web" / "static"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(with_client(make_app(tmp_path))) as c:
        yield c


@pytest.mark.parametrize("path", ["/", "/t/AbCdEf123_-", "/replay"])
def test_every_page_is_the_one_page_with_a_strict_policy(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/js/app.js">' in r.text
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'self'" in csp
    assert r.headers["referrer-policy"] == "no-referrer"


def test_static_files_are_served_from_the_package_and_nothing_else(client: TestClient) -> None:
    js = client.get("/static/js/app.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    assert js.headers["cache-control"] == "no-cache"
    assert client.get("/static/css/gnav.css").headers["content-type"].startswith("text/css")
    for bad in ("/static/../__init__.py", "/static/%2e%2e/routes.py", "/static/nothing.js"):
        assert client.get(bad).status_code == 404, bad


def test_no_file_loads_anything_from_another_host() -> None:
    for path in STATIC.rglob("*"):
        if path.suffix not in (".js", ".css", ".html"):
            continue
        text = path.read_text(encoding="utf-8")
        # Only the SVG namespace may name another host, and it is never fetched.
        hosts = set(re.findall(r"https?://[^\s\"'`)]+", text)) - {"http://www.w3.org/2000/svg"}
        assert not hosts, (path.name, hosts)
        assert "@import" not in text and "eval(" not in text


def test_every_string_is_in_english_norwegian_and_danish() -> None:
    source = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    table = source[source.index("const S = {"):source.index("\n};\n")]
    entries = re.findall(r'^  "([\w.]+)": \{(.*?)\},?$', table, re.S | re.M)
    keys = {k for k, _ in entries}
    assert len(keys) > 150
    for key, body in entries:
        for lang in ("en", "nb", "da"):
            assert re.search(rf"\b{lang}: ", body), (key, lang)
    # The sentences the page shares with the terminal are the engine's catalogue, served
    # as /static/texts.json (tests/test_texts.py holds it to the three languages).
    keys |= set(json.loads(texts_text())["sentences"])
    used: set[str] = set()
    for path in (STATIC / "js").rglob("*.js"):  # the panels too
        used |= set(re.findall(r'\bt\("([\w.]+)"', path.read_text(encoding="utf-8")))
    assert used - keys == set()


def test_presets_json_has_every_preset_with_its_pieces_and_calls(client: TestClient) -> None:
    r = client.get("/static/presets.json")
    assert r.status_code == 200
    data = r.json()
    assert [p["name"] for p in data["presets"]] == list(PRESETS)
    gnav = data["presets"][0]
    assert gnav["pieces"][1]["calls"]["nb"] == "Hugg av!"
    assert gnav["pieces"][0]["does"]["da"].startswith("runden stopper")
    slabberjan = next(p for p in data["presets"] if p["name"] == "slabberjan")
    assert slabberjan["lang"] == "nl" and slabberjan["pieces"][0]["calls"]["nl"] == "Kap af!"
    assert set(gnav["description"]) == {"en", "nb", "da"}
    assert json.loads(presets_text()) == data



def test_presets_json_names_each_vocabulary_from_its_one_source(client: TestClient) -> None:
    data = client.get("/static/presets.json").json()
    assert data["bot_kinds"] == [str(k) for k in BOT_KINDS]
    assert data["bot_default"] == TableConfig().bot in data["bot_kinds"]
    assert data["looks"] == list(LOOKS) and data["look_default"] in LOOKS
    assert data["scores"] == list(SCORES)
    assert list(data["page_languages"]) == [str(x) for x in TEXT_LANGS]
    assert data["page_languages"]["nb"] == "Norsk"
    # Every option in the contract's order, each of exactly one kind the form can draw.
    assert data["options"] == list(Options().as_dict())
    for opt in data["options"]:
        kinds = [opt in data["option_choices"], opt in data["option_bools"],
                 opt in data["option_ranges"], opt in data["option_at_least"]]
        assert kinds.count(True) == 1, opt
    # Every language a preset's calls are made in is named in the page's languages.
    calls = {lang for p in PRESETS.values() for x in p.pieces for lang in x.calls}
    assert calls <= set(data["languages"])
    assert all(set(names) == set(data["page_languages"]) for names in data["languages"].values())


def test_the_openapi_document_describes_the_metadata_as_served(client: TestClient) -> None:
    data = client.get("/static/presets.json").json()
    meta = document("http://test")["components"]["schemas"]["Meta"]
    assert set(meta["required"]) <= set(data)
    props = meta["properties"]
    assert props["bot_kinds"]["items"]["enum"] == data["bot_kinds"]
    assert props["options"]["items"]["enum"] == data["options"]
    assert props["page_languages"]["propertyNames"]["enum"] == list(data["page_languages"])
    assert set(data["languages"]) <= set(props["languages"]["propertyNames"]["enum"])
    op = document("http://test")["paths"]["/static/presets.json"]["get"]
    assert op["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Meta"}


# A JavaScript array literal that lists two words of one vocabulary, or a regular
# expression that offers two of them (any case, "Random|Threshold"): a copy of it.
def _copies(words: list[str], text: str) -> list[str]:
    word = "|".join(re.escape(w) for w in words)
    found = re.findall(rf"\[[^\[\]]*[\"'](?:{word})[\"'][^\[\]]*[\"'](?:{word})[\"'][^\[\]]*\]",
                       text)
    found += re.findall(rf"(?i)\b(?:{word})\|(?:{word})\b", text)
    return list(found)


def test_the_client_keeps_no_copy_of_the_vocabularies() -> None:
    data = json.loads(presets_text())
    vocabularies = {"bot kinds": data["bot_kinds"], "options": data["options"],
                    "languages": list(data["languages"]), "looks": data["looks"],
                    "scores": data["scores"]}
    js = Path(static_routes.__code__.co_filename).parent / "static" / "js"
    # The check finds a copy, in a list or in a pattern.
    assert _copies(["a", "b"], 'const X = ["a", "b"];')
    assert _copies(["random", "counter"], "const BOT = /^(?:(?:Random|Counter) b|B)ot/;")
    for path in sorted(js.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        for name, words in vocabularies.items():
            assert _copies(words, text) == [], f"{path.name} lists {name} of its own"

@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("lang", ["en", "nb", "da"])
def test_the_rules_of_every_preset_in_every_language(preset: str, lang: str) -> None:
    r = rules_json(preset, {}, lang)
    assert r["preset"] == preset and r["explanation"] and r["pieces"]
    assert len(r["pieces"]) == len(PRESETS[preset].pieces)


def test_the_rules_route_reads_options_and_says_what_is_wrong(client: TestClient) -> None:
    r = client.get("/api/rules", params={"preset": "gnav", "lang": "da",
                                         "options": json.dumps({"lives": 2, "knock": "silent"})})
    assert r.status_code == 200
    body = r.json()
    assert "Ingen banker" in " ".join(body["explanation"])
    assert {o["name"]: o["changed"] for o in body["options"]}["lives"] is True
    for params, words in [({"preset": "nope"}, "unknown preset"),
                          ({"options": "{"}, "options"),
                          ({"options": json.dumps({"lives": 99})}, "lives"),
                          ({"lang": "fr"}, "lang"),
                          ({"x": "1"}, "unknown query parameter")]:
        r = client.get("/api/rules", params=params)
        assert r.status_code == 400, params
        reason = r.json()["error"]["reason"]
        assert words in reason and "\n" not in reason and "Traceback" not in reason


def test_a_record_replays_into_full_steps(client: TestClient) -> None:
    text = bots_match(3)
    r = client.post("/api/replay", content=text.encode())
    assert r.status_code == 200, r.text
    body = r.json()
    rep = replay(loads(text))
    assert len(body["rounds"]) == len(rep.states)
    assert len(body["steps"]) == sum(len(s) for s in rep.states)
    # Every step holds every hand, as the engine has them, and swaps name their pieces.
    k = 0
    for seen in rep.states:
        for state in seen:
            rnd = state.round
            assert rnd is not None
            assert body["steps"][k]["hands"] == [rnd.rules.ids[h] for h in rnd.hands]
            k += 1
    swaps = [e for s in body["steps"] for e in s["events"] if e["type"] == "swap"]
    assert swaps and all(e["seat_got"] and e["target_got"] for e in swaps)
    last = body["steps"][-1]["events"]
    assert last[-1]["type"] == "match_end" and body["winners"] == last[-1]["winners"]
    assert body["warning"] is None


def test_a_record_whose_results_disagree_is_shown_with_a_warning() -> None:
    data = json.loads(bots_match(4))
    data["rounds"][0]["result"]["lives"][data["seats"][1]] = 99
    body = replay_steps(json.dumps(data))
    assert body["warning"] and "record says 99" in body["warning"]


@pytest.mark.parametrize("x, look", [
    ({"look": "cards52"}, "cards52"), ({"look": "cards"}, "cards"), (None, None),
    ({"look": "marble"}, None), ({"look": ["cards"]}, None), ([1, 2], None)])
def test_the_replay_shows_the_look_the_table_showed(x: object, look: str | None) -> None:
    data = json.loads(bots_match(4))
    if x is not None:
        data["x"] = x
    assert replay_steps(json.dumps(data))["look"] == look


@pytest.mark.parametrize("text, code, words", [
    ("not json", "bad_record", "not JSON"),
    ("[1, 2]", "bad_record", "must be an object"),
    ('{"gnav": 1, "rules": "gnav", "seats": ["A", "B"], "rounds": [{"dealer": "A", '
     '"seed": 1, "actions": [["A", "stand"]]}]}', "inconsistent", "round 1"),
    ('{"gnav": 1, "rules": "nope", "seats": ["A", "B"], "rounds": []}', "bad_record",
     "unknown preset"),
])
def test_a_bad_record_is_one_line(client: TestClient, text: str, code: str, words: str) -> None:
    r = client.post("/api/replay", content=text.encode())
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == code and words in error["reason"], error
    assert "\n" not in error["reason"]


def test_replay_limits_its_input(client: TestClient) -> None:
    r = client.post("/api/replay", content=b" " * (MAX_BYTES + 1))
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_big"
    assert client.post("/api/replay", content=b"").json()["error"]["code"] == "bad_record"
    assert client.post("/api/replay", content=b"\xff\xfe").json()["error"]["code"] == "bad_record"
    with pytest.raises(ReplayError):
        replay_steps("x" * (MAX_BYTES + 1))


def test_static_routes_are_added_once(tmp_path: Path) -> None:
    routes = static_routes()
    paths = [getattr(r, "path", None) for r in routes]
    assert paths[:3] == ["/", "/t/{table_id}", "/replay"] and "/static" in paths
    app = with_client(with_client(make_app(tmp_path)))
    assert [getattr(r, "path", None) for r in app.router.routes].count("/static") == 1


def test_an_unknown_page_is_a_page_and_the_api_stays_json(client: TestClient) -> None:
    html = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    page = client.get("/no/such/page", headers=html)
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/js/app.js">' in page.text  # it says so, in words
    assert "script-src 'self'" in page.headers["content-security-policy"]
    for path in ("/api/nothing", "/static/nothing.js", "/ws/x/y"):
        r = client.get(path, headers=html)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", path
    assert client.get("/no/such/page").json()["error"]["code"] == "not_found"  # not a browser
    assert client.post("/no/such/page", headers=html).json()["error"]["code"] == "not_found"


def test_a_table_refuses_calls_in_a_language_its_game_lacks(client: TestClient) -> None:
    r = client.post("/api/tables", json={"preset": "gnav", "lang": "it"})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "bad_lang"
    assert error["reason"] == "lang: gnav has its calls in nb, da, en, not 'it'"
    made = client.post("/api/tables", json={"preset": "cuccu", "lang": "it"})
    assert made.status_code == 201
    assert client.post("/api/tables", json={"preset": "cuccu", "lang": "nb"}).json()[
        "error"]["reason"] == "lang: cuccu has its calls in it, en, not 'nb'"
    rules = client.get("/api/rules", params={"lang": "sv"})
    assert rules.status_code == 400 and "en, nb, da" in rules.json()["error"]["reason"]


def test_table_ids_have_no_look_alike_letters(client: TestClient) -> None:
    ids = {new_table_id() for _ in range(300)} | {client.post("/api/tables", json={}).json()["id"]}
    assert len(ids) == 301
    for table_id in ids:
        assert len(table_id) == 11 and not set(table_id) & set("Il1O0o"), table_id
        assert table_id.isalnum()


@pytest.mark.parametrize(("score", "lives", "marks"), [
    (None, 2, "tokens ●●"), ("strokes", 5, "strokes |||||"), ("tokens", 7, "tokens ●●●●●●●"),
    ("gnav", 3, "the letters G-N-A-V, one for each life lost")])
def test_the_rules_show_as_many_life_marks_as_the_table_has_lives(
        client: TestClient, score: str | None, lives: int, marks: str) -> None:
    params = {"preset": "gnav", "lang": "en", "options": json.dumps({"lives": lives})}
    if score is not None:
        params["score"] = score
    body = client.get("/api/rules", params=params).json()
    assert body["score"] == marks
    last = body["explanation"][-1]
    assert last.startswith(f"Everyone starts with {lives} lives, shown as {marks}."), last
    # The preset's own marks (three of them) are gone from the text.
    assert ("●●●" in last) == (score in (None, "tokens") and lives >= 3)
    assert client.get("/api/rules", params={**params, "score": "chalk"}).status_code == 400


def test_preset_titles_are_given_in_each_language() -> None:
    data = json.loads(presets_text())
    by = {p["name"]: p for p in data["presets"]}
    assert by["gnav-1917"]["titles"] == {"en": "Gnav (Copenhagen 1917)",
                                         "nb": "Gnav (København 1917)",
                                         "da": "Gnav (København 1917)"}
    assert all(set(p["titles"]) == {"en", "nb", "da"} for p in data["presets"])
    assert rules_json("gnav-summary", {}, "nb")["title"] == "Gnav (sammendrag)"


def test_the_analysis_streams_its_progress_then_the_analysis(client: TestClient) -> None:
    """``POST /api/analyse?progress=1``: JSON lines, progress then the analysis (the
    same as the plain route's answer), or an error line saying what is wrong."""
    text = bots_match(3)  # four seats: exact figures, lookups
    r = client.post("/api/analyse?progress=1", content=text.encode())
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(x) for x in r.text.splitlines() if x.strip()]
    assert "analysis" in lines[-1] and all("done" in x for x in lines[:-1])
    plain = client.post("/api/analyse", content=text.encode())
    assert plain.status_code == 200 and plain.json() == lines[-1]["analysis"]
    bad = client.post("/api/analyse?progress=1", content=b'{"gnav": 1}')
    last = json.loads(bad.text.splitlines()[-1])
    assert last["error"]["code"] == "bad_record" and "\n" not in last["error"]["reason"]
    odd = client.post("/api/analyse?progress=yes", content=text.encode())
    assert odd.status_code == 400 and odd.json()["error"]["code"] == "bad_field"
