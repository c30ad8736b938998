// The page's frame (header, language, rules, settings, connection state) and the router:
// "/" is the start page, "/t/{id}" a table, "/replay" the replay viewer, "/learn" the
// guided first match, "/puzzles" the puzzles.

import { h, clear, icon } from "./dom.js";
import { t, LANGS, LANG_NAMES, setLanguages, detectLang, setLang, lang, onLang } from "./i18n.js";
import { loadPresets } from "./presets.js";
import { installDefs, crownSVG } from "./pieces.js";
import { showRules } from "./rules.js";
import { SPEEDS, speed, setSpeed, hintsOn, setHints, coachOn, setCoach, reducedMotion } from "./settings.js";
import { says } from "./errors.js";

function makeShell() {
  const main = document.getElementById("main");
  const conn = document.getElementById("conn");
  const title = document.getElementById("page-title");
  const langSel = document.getElementById("lang-select");
  const rulesBtn = document.getElementById("rules-btn");
  const settingsBtn = document.getElementById("settings-btn");
  const skip = document.getElementById("skip-link");
  const brand = document.getElementById("brand");
  let connState = null;
  let retryTimer = null;

  brand.prepend(crownSVG());
  for (const code of LANGS) langSel.append(h("option", { value: code, text: LANG_NAMES[code] }));
  langSel.value = lang();
  langSel.addEventListener("change", () => setLang(langSel.value));
  rulesBtn.addEventListener("click", () => showRules());
  settingsBtn.addEventListener("click", () => showSettings());

  const label = () => {
    skip.textContent = t("app.skip");
    brand.setAttribute("aria-label", t("app.home"));
    document.getElementById("lang-label").textContent = t("app.language");
    clear(rulesBtn).append(icon("book"), h("span", { class: "label", text: t("app.rules") }));
    clear(settingsBtn).append(icon("gear"), h("span", { class: "label", text: t("app.settings") }));
    settingsBtn.setAttribute("aria-label", t("app.settings"));
    settingsBtn.title = t("app.settings");
    langSel.value = lang();
    if (connState) shell.setConn(...connState);
  };

  const shell = {
    main,
    setTitle(text) {
      title.textContent = text;
      document.title = text ? `${text} · Gnav` : "Gnav";
    },
    setConn(state, detail = {}, retry = null) {
      connState = [state, detail, retry];
      clearInterval(retryTimer);
      clear(conn);
      conn.dataset.state = state;
      if (state === "open") conn.append(h("span", { class: "dot" }), t("conn.open"));
      else if (state === "connecting") conn.append(h("span", { class: "dot" }), t("conn.connecting"));
      else if (state === "retry") {
        const text = h("span");
        const tick = () => {
          const s = Math.max(0, Math.ceil((detail.until - Date.now()) / 1000));
          text.textContent = t("conn.retry", { s, n: detail.attempt });
        };
        tick();
        retryTimer = setInterval(tick, 500);
        conn.append(h("span", { class: "dot" }), text);
        if (retry) conn.append(h("button", { class: "btn small", type: "button", onclick: retry, text: t("conn.now") }));
      } else if (state === "replaced") {
        conn.append(h("span", { class: "dot" }), t("conn.replaced"));
        if (retry) conn.append(h("button", { class: "btn small", type: "button", onclick: retry, text: t("conn.take_back") }));
      } else if (state === "stopped") {
        conn.append(h("span", { class: "dot" }), t("conn.closed", { reason: says({ code: detail.code }) }));
      }
    },
  };
  onLang(label);
  label();
  return shell;
}

let settingsDialog = null;

function showSettings() {
  if (!settingsDialog) {
    settingsDialog = h("dialog", { class: "dialog settings-dialog", "aria-labelledby": "settings-title" });
    settingsDialog.addEventListener("click", (e) => { if (e.target === settingsDialog) settingsDialog.close(); });
    document.body.append(settingsDialog);
    onLang(() => { if (settingsDialog.open) fillSettings(); });
  }
  fillSettings();
  if (!settingsDialog.open) settingsDialog.showModal();
}

function fillSettings() {
  const d = settingsDialog;
  const close = h("button", { class: "btn close", type: "button", onclick: () => d.close(), text: t("app.close") });
  const speeds = h("fieldset", {}, h("legend", { text: t("settings.speed") }),
    SPEEDS.map((s) => {
      const input = h("input", { type: "radio", name: "speed", value: s, id: `speed-${s}` });
      input.checked = speed() === s;
      input.addEventListener("change", () => setSpeed(s));
      return h("label", { class: "radio", for: `speed-${s}` }, input, ` ${t(`speed.${s}`)}`);
    }));
  const hints = h("input", { type: "checkbox", id: "hints-on" });
  hints.checked = hintsOn();
  hints.addEventListener("change", () => setHints(hints.checked));
  const coach = h("input", { type: "checkbox", id: "coach-on" });
  coach.checked = coachOn();
  coach.addEventListener("change", () => setCoach(coach.checked));
  // Element.append writes a null as the text "null": only the parts there are.
  clear(d).append(...[h("div", { class: "dialog-head" }, h("h2", { id: "settings-title", text: t("app.settings") }), close),
    speeds,
    h("div", { class: "field check" }, hints, h("label", { for: "hints-on", text: t("settings.hints") })),
    h("div", { class: "field check" }, coach, h("label", { for: "coach-on", text: t("settings.coach") })),
    h("p", { class: "muted small", id: "coach-help", text: t("settings.coach_help") }),
    h("p", { class: "muted small", id: "coach-pays", text: t("pays.means") }),
    reducedMotion() ? h("p", { class: "muted", text: t("settings.motion") }) : null].filter(Boolean));
  close.focus();
}

async function route(shell) {
  const path = location.pathname;
  const table = path.match(/^\/t\/([A-Za-z0-9_-]{1,64})\/?$/);
  if (table) {
    const { tablePage } = await import("./table.js");
    return tablePage(shell, table[1]);
  }
  if (path === "/replay" || path === "/replay/") {
    const { replayPage } = await import("./replay.js");
    return replayPage(shell);
  }
  if (path === "/learn" || path === "/learn/") {
    const { learnPage } = await import("./learn.js");
    return learnPage(shell);
  }
  if (path === "/puzzles" || path === "/puzzles/") {
    const { puzzlesPage } = await import("./puzzles.js");
    return puzzlesPage(shell);
  }
  if (path === "/" || path === "") {
    const { startPage } = await import("./start.js");
    return startPage(shell);
  }
  return notFound(shell, path);
}

// Any other address: say so in the page's language, with the way back.
function notFound(shell, path) {
  const draw = () => {
    shell.setTitle(t("err.page_title"));
    clear(shell.main).append(h("section", { class: "panel narrow-panel not-found", role: "alert" },
      h("h1", { text: t("err.page_title") }),
      h("p", { text: t("err.page_text", { path: readable(path).slice(0, 200) }) }),
      h("p", {}, h("a", { class: "btn primary", href: "/", id: "back-home", text: t("err.back") }))));
  };
  onLang(draw);
  draw();
}

// The page's languages come from the server with the presets (and the catalogue of
// sentences with them, presets.js), which every page needs:
// read them first, then draw. Without them the page still says what went wrong.
async function main() {
  let failed = null;
  try {
    setLanguages((await loadPresets()).page_languages);
  } catch (e) {
    failed = e;
  }
  setLang(detectLang(), false);
  installDefs();
  const shell = makeShell();
  if (failed) throw failed;
  await route(shell);
}

main().catch((e) => {
  console.error(e);
  const main = document.getElementById("main");
  clear(main).append(h("p", { class: "error", role: "alert", text: says(e) }));
});

function readable(path) {
  try { return decodeURI(path); } catch { return path; }
}
