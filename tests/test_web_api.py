"""The browser's HTTP client (static/js/api.js), run in the browser against a real
server: a request that changes a table is sent again, with the same key, when its
answer is lost or says another try may do, and the server answers the retry as the
first (issue 27 §3); a request that reads is never sent again."""

from __future__ import annotations

import web_kit  # isort: skip  (first: it checks for playwright and chromium)

from typing import Any

from playwright.sync_api import Browser

from browser import context
from devserver import Running

server_fixture, pw_fixture, browser_fixture = web_kit.fixtures()

# fetch wrapped: every request's method, path and key is noted; the first ``lose``
# answers of requests that change a table are lost after the server made them (the
# process died before answering), and the next ``refuse`` are refused before it.
WRAP = """
  window.sent = [];
  window.lose = 0; window.refuse = 0;
  const real = window.fetch.bind(window);
  window.fetch = async (path, init) => {
    window.sent.push([init.method, path, (init.headers || {})['Idempotency-Key'] || null]);
    if (init.method !== 'GET' && window.refuse > 0) {
      window.refuse -= 1;
      return new Response('', {status: 502});
    }
    const r = await real(path, init);
    if (init.method !== 'GET' && window.lose > 0) {
      window.lose -= 1;
      throw new TypeError('Failed to fetch');
    }
    return r;
  };
"""


def run(server: Running, browser: Browser, body: str) -> Any:
    page = context(browser).new_page()
    page.goto(server.url + "/")
    got = page.evaluate(f"async () => {{ {WRAP}\n"
                        f"const A = await import('/static/js/api.js');\n{body} }}")
    page.context.close()
    return got


def test_a_create_join_and_start_whose_answers_are_lost_are_made_once(
        server: Running, browser: Browser) -> None:
    got = run(server, browser, """
      window.lose = 1;
      const made = await A.api('POST', '/api/tables', {body: {seats: 3}, pause: 10});
      window.lose = 1; window.refuse = 1;
      const joined = await A.api('POST', `/api/tables/${made.id}/join`,
                                 {body: {name: 'Åse', invite: made.invite}, pause: 10});
      window.lose = 1;
      const started = await A.api('POST', `/api/tables/${made.id}/start`,
                                  {body: {}, token: made.host_token, pause: 10});
      const info = await A.api('GET', `/api/tables/${made.id}`);
      return {made, joined, started, info, sent: window.sent};
    """)
    sent = got["sent"]
    posts = [s for s in sent if s[0] == "POST"]
    # Each change sent again with its own key, the same each time.
    creates = [s for s in posts if s[1] == "/api/tables"]
    joins = [s for s in posts if s[1].endswith("/join")]
    starts = [s for s in posts if s[1].endswith("/start")]
    assert (len(creates), len(joins), len(starts)) == (2, 3, 2)
    for tries in (creates, joins, starts):
        assert len({key for _, _, key in tries}) == 1 and tries[0][2]
        assert 16 <= len(tries[0][2]) <= 64
    assert len({creates[0][2], joins[0][2], starts[0][2]}) == 3
    # One table, one person, one start: the retries were answered as the first.
    info = got["info"]
    assert info["id"] == got["made"]["id"] and info["phase"] == "playing"
    people = [s for s in info["seats"] if s["kind"] == "human"]
    assert [p["name"] for p in people] == ["Åse"] and got["joined"]["seat"] == 0
    assert got["started"]["phase"] == "playing"
    gets = [s for s in sent if s[0] == "GET"]
    assert all(key is None for _, _, key in gets)


def test_a_read_and_a_refusal_are_not_sent_again(server: Running, browser: Browser) -> None:
    got = run(server, browser, """
      const made = await A.api('POST', '/api/tables', {body: {seats: 3}, pause: 10});
      let code = null;
      try {
        await A.api('POST', `/api/tables/${made.id}/start`,
                    {body: {}, token: 'nothost', pause: 10});
      } catch (e) { code = e.code; }
      window.refuse = 99;
      let coach = null;
      try {
        await A.api('POST', `/api/tables/${made.id}/seats/0/coach`,
                    {body: {}, token: 'x', pause: 10});
      } catch (e) { coach = e.code; }
      let gone = null;
      try {
        await A.api('POST', `/api/tables/${made.id}/bots`,
                    {body: {}, token: made.host_token, pause: 1});
      } catch (e) { gone = e.code; }
      return {code, coach, gone, sent: window.sent, tries: A.TRIES};
    """)
    paths = [path for _, path, _ in got["sent"]]
    assert got["code"] == "not_host" and sum(p.endswith("/start") for p in paths) == 1
    assert got["coach"] == "http" and sum(p.endswith("/coach") for p in paths) == 1
    # A change the proxy keeps refusing is given up after its tries.
    assert got["gone"] == "http" and sum(p.endswith("/bots") for p in paths) == got["tries"]
