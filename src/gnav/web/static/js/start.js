// The start page: create a table (game, seats, bots, lives, timer, look and rules), join
// one by its link or code, or pick one of the open tables.

import { h, clear } from "./dom.js";
import { t, has, lang, onLang } from "./i18n.js";
import { api, save, readInvite } from "./api.js";
import { loadPresets, presetData, maxSeats, presetTitle } from "./presets.js";
import { pieceSVG } from "./pieces.js";
import { says, nameLimit, NAME_MAX } from "./errors.js";
import { namerByName } from "./names.js";
import { setRulesContext, showRules } from "./rules.js";
import { oddsLink, companionLink } from "./links.js";

const TIMERS = [null, 15, 30, 60, 120];
// Lives have their own field; every other option of the engine (presets.json lists them,
// in the contract's order) is under "more rules".
const OWN_FIELD = new Set(["lives"]);
const moreOptions = () => presetData().options.filter((opt) => !OWN_FIELD.has(opt));

export async function startPage(shell) {
  await loadPresets();
  const state = { preset: "gnav", form: null };
  const draw = () => {
    shell.setTitle("");
    const keep = readForm(state);
    clear(shell.main).append(render(state, keep));
    refreshLobby();
  };
  onLang(draw);
  draw();
  setInterval(refreshLobby, 15000);
}

function render(state, keep) {
  const data = presetData();
  const hero = h("section", { class: "hero" },
    h("div", { class: "hero-pieces", "aria-hidden": "true" },
      ["cuckoo", "dragoon", "cat", "fool"].map((id) => pieceSVG(data.byName.gnav, id, { label: false }))),
    h("div", {}, h("h1", { text: "Gnav" }), h("p", { class: "lead", text: t("start.tagline") }),
      // New players: the guided first match (learn.js).
      h("p", {}, h("a", { href: "/learn", class: "btn primary", id: "learn-link", text: t("learn.ui.title") }))));
  return h("div", { class: "start-page" }, hero,
    h("div", { class: "start-grid" }, createForm(state, keep),
      h("div", { class: "start-side" }, joinForm(), lobbyPanel(),
        h("p", {}, h("a", { href: "/replay", class: "link", text: t("start.replay") })),
        h("p", {}, oddsLink({ preset: state.preset })), h("p", {}, companionLink()))));
}

// -- creating a table -----------------------------------------------------------------------

function field(id, label, control, help) {
  return h("div", { class: "field" }, h("label", { for: id, text: label }), control,
    help ? h("p", { class: "help", id: `${id}-help`, text: help }) : null);
}

function select(id, options, value) {
  const s = h("select", { id, name: id });
  for (const [v, label] of options) {
    const o = h("option", { value: v, text: label });
    if (String(v) === String(value)) o.selected = true;
    s.append(o);
  }
  return s;
}

function readForm(state) {
  const f = state.form;
  if (!f) return null;
  const out = {};
  for (const el of f.querySelectorAll("input, select")) {
    out[el.name || el.id] = el.type === "checkbox" ? el.checked : el.type === "radio" ? (el.checked ? el.value : out[el.name]) : el.value;
  }
  return out;
}

function createForm(state, keep) {
  const data = presetData();
  const k = keep || {};
  const presetName = k.preset || state.preset;
  const p = data.byName[presetName] || data.byName.gnav;
  state.preset = p.name;
  const L = lang();
  const o = p.options;
  const copies = Number(k["opt-copies"] || o.copies);
  const max = maxSeats(p, copies);
  const name = h("input", { id: "name", name: "name", required: true, maxlength: String(NAME_MAX),
                            autocomplete: "nickname", "aria-describedby": "name-error",
                            value: (k.name ?? (localStorage.getItem("gnav.name") || "")).slice(0, NAME_MAX) });
  const nameError = h("p", { class: "error", role: "alert", id: "name-error" });
  nameLimit(name, nameError);
  // Every game with its one-line description; the rules of the chosen one a click away.
  const presetList = h("div", { class: "preset-list", role: "radiogroup", "aria-labelledby": "preset-legend" },
    data.presets.map((x) => {
      const id = `preset-${x.name}`;
      const input = h("input", { type: "radio", name: "preset", value: x.name, id,
                                 "aria-describedby": `${id}-desc` });
      input.checked = x.name === p.name;
      return h("label", { class: "preset-choice", for: id }, input,
        h("span", { class: "preset-text" }, h("strong", { text: presetTitle(x, L) }),
          h("span", { class: "help", id: `${id}-desc`, text: x.description[L] || x.description.en })));
    }));
  const rulesBtn = h("button", { class: "btn small ghost", type: "button", id: "preset-rules",
                                 text: `${t("app.rules")}: ${presetTitle(p, L)}`,
                                 onclick: () => showRules(formRules(p)) });
  const seats = h("input", { id: "seats", name: "seats", type: "number", min: String(p.min_seats),
                             max: String(max), value: String(Math.min(max, Math.max(p.min_seats, Number(k.seats || 6)))),
                             "aria-describedby": "seats-help", inputmode: "numeric" });
  const bots = h("input", { id: "bots", name: "bots", type: "number", min: "0", max: String(max - 1),
                            value: String(k.bots ?? 0), inputmode: "numeric" });
  const bot = select("bot", data.bot_kinds.map((x) => [x, has(`bot.${x}`) ? t(`bot.${x}`) : x]),
                     k.bot || data.bot_default);
  const lives = h("input", { id: "lives", name: "lives", type: "number", min: "1", max: "10",
                             value: String(k.lives || o.lives), inputmode: "numeric" });
  const timer = select("timer", TIMERS.map((x) => [x === null ? "off" : x, x === null ? t("timer.off") : t("timer.secs", { n: x })]),
                       k.timer || "30");
  const looks = h("fieldset", { class: "looks" }, h("legend", { text: t("create.look") }),
    data.looks.map((look) => {
      const input = h("input", { type: "radio", name: "look", value: look, id: `look-${look}` });
      input.checked = (k.look || data.look_default) === look;
      return h("label", { class: "look-choice", for: `look-${look}` }, input,
        h("span", { class: "look-pics", "aria-hidden": "true" },
          pieceSVG(p, p.pieces[1].id, { look, label: false }), pieceSVG(p, null, { look })),
        h("span", { text: t(`look.${look}`) }));
    }));
  const score = select("score", data.scores.map((x) => [x, t(`score.${x}`)]), k.score || p.score);
  const callLangs = [...new Set([p.lang, ...p.pieces.flatMap((x) => Object.keys(x.calls))])];
  const names = data.languages;
  const calls = select("calls", callLangs.map((x) => [x, (names[x] && names[x][L]) || x]), k.calls || p.lang);
  const listed = h("input", { id: "listed", name: "listed", type: "checkbox" });
  listed.checked = Boolean(k.listed);
  const noCoach = h("input", { id: "no-coaching", name: "no_coaching", type: "checkbox" });
  noCoach.checked = Boolean(k.no_coaching);
  const more = h("details", { class: "more" }, h("summary", { text: t("create.more") }),
    h("div", { class: "more-grid" }, moreOptions().map((opt) => optionField(opt, p, k, seats.value, lives.value))));
  // What a table of this size sets so that a match ends (docs/rules.md, large tables):
  // said under the seats, and shown as the default of that option.
  const tableNote = h("p", { class: "help", id: "table-options-note" });
  const error = h("p", { class: "error", role: "alert", id: "create-error" });
  // Two ways to create: at once under the name (Gnav, the usual settings: above the fold
  // of a laptop), or at the end, once the game and its settings are chosen.
  const submit = h("button", { class: "btn primary", type: "submit", id: "create-submit", text: t("create.submit") });
  const submitEnd = h("button", { class: "btn primary big", type: "submit", id: "create-submit-end", text: t("create.submit") });
  const form = h("form", { class: "panel create-form", id: "create-form", "aria-labelledby": "create-heading" },
    h("h2", { id: "create-heading", text: t("create.heading") }),
    h("div", { class: "name-row" }, field("name", t("create.name"), name), submit), nameError,
    h("p", { class: "help", text: t("create.or_choose") }),
    h("fieldset", { class: "field presets" },
      h("legend", { id: "preset-legend", text: t("create.preset_count", { n: data.presets.length }) }),
      presetList, rulesBtn),
    h("div", { class: "grid-2" },
      field("seats", t("create.seats"), seats, t("create.seats_help", { min: p.min_seats, max })),
      field("lives", t("create.lives"), lives)),
    tableNote,
    h("div", { class: "grid-2" }, field("bots", t("create.bots"), bots), field("bot", t("create.bot"), bot)),
    h("div", { class: "grid-2" }, field("timer", t("create.timer"), timer), field("score", t("create.score"), score)),
    looks,
    h("div", { class: "grid-2" }, field("calls", t("create.calls"), calls),
      h("div", { class: "field check" }, listed, h("label", { for: "listed", text: t("create.listed") }))),
    h("div", { class: "field check" }, noCoach, h("label", { for: "no-coaching", text: t("create.no_coaching") })),
    more, error, submitEnd);
  state.form = form;
  presetList.addEventListener("change", () => {
    const keepNow = readForm(state);
    const fresh = { name: keepNow.name, preset: keepNow.preset, seats: keepNow.seats, bots: keepNow.bots,
                    bot: keepNow.bot, timer: keepNow.timer, look: keepNow.look, listed: keepNow.listed,
                    no_coaching: keepNow.no_coaching };
    form.replaceWith(createForm(state, fresh));
    document.getElementById(`preset-${keepNow.preset}`).focus();
  });
  const sizeChanged = () => {
    tableNote.textContent = tableOptionsNote(p, seats.value, lives.value);
    for (const opt of moreOptions()) {
      const el = form.querySelector(`#opt-${opt}`);
      const base = tableBase(p, opt, seats.value, lives.value);
      const text = base === null ? "" : String(base);
      if (el.value === el.dataset.base) el.value = text;  // a choice of the host's stays
      el.dataset.base = text;
    }
  };
  seats.addEventListener("input", sizeChanged);
  lives.addEventListener("input", sizeChanged);
  tableNote.textContent = tableOptionsNote(p, seats.value, lives.value);
  const copiesEl = () => form.querySelector("#opt-copies");
  form.addEventListener("change", (e) => {
    if (e.target === copiesEl()) {
      const m = maxSeats(p, Number(copiesEl().value));
      seats.max = String(m);
      bots.max = String(m - 1);
      if (Number(seats.value) > m) seats.value = String(m);
      document.getElementById("seats-help").textContent = t("create.seats_help", { min: p.min_seats, max: m });
    }
  });
  form.noValidate = true;  // the page says what is wrong, next to the field
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    // What went wrong is said by the button pressed (or under the name, for Enter there).
    const pressed = e.submitter === submitEnd ? submitEnd : submit;
    if (pressed === submitEnd) submitEnd.before(error);
    else nameError.after(error);
    create(form, p, error, [submit, submitEnd], nameError);
  });
  setRulesContext({ preset: p.name, options: {}, look: data.look_default, score: null });
  return form;
}

// The rules as the form stands: its lives, look and way of scoring.
function formRules(p) {
  const v = (id) => { const el = document.getElementById(id); return el ? el.value : null; };
  const lives = Number(v("lives"));
  const options = Number.isInteger(lives) && lives >= 1 && lives <= 10 && lives !== p.options.lives
    ? { lives } : {};
  const look = document.querySelector("input[name=look]:checked");
  return { preset: p.name, options, look: look ? look.value : presetData().look_default,
           score: v("score") };
}

// An option's default at a table of ``seats`` seats and ``lives`` lives: the preset's,
// or what a table of that size sets so that a match ends (presets.json table_options).
function tableBase(p, opt, seats, lives) {
  const r = p.table_options;
  if (!r || Number(seats) < r.from || !(opt in r.options)) return p.options[opt];
  const v = r.options[opt];
  return v === "rounds_per_life" ? Number(seats) * Number(lives) : v;
}

function tableOptionsNote(p, seats, lives) {
  const r = p.table_options;
  if (!r || Number(seats) < r.from) return "";
  return "max_rounds" in r.options
    ? t("length.remedy_rounds", { from: r.from, rounds: Number(seats) * Number(lives) })
    : t("length.remedy_pay", { from: r.from });
}

function optionField(opt, p, k, seats, lives) {
  const data = presetData();
  const id = `opt-${opt}`;
  const base = tableBase(p, opt, seats, lives);
  const kept = k[id];
  const help = data.option_text[opt] ? data.option_text[opt][lang()] : "";
  let control;
  if (data.option_choices[opt]) {
    control = select(id, data.option_choices[opt].map((v) => [v, `${v}: ${t(`val.${v}`)}`]), kept ?? base);
  } else if (data.option_bools.includes(opt)) {
    control = select(id, [["true", t("val.true")], ["false", t("val.false")]], kept ?? String(base));
  } else if (opt in data.option_at_least) {  // a number, or empty for none
    control = h("input", { id, name: id, type: "number", min: String(data.option_at_least[opt]),
                           max: "999", value: kept ?? (base ?? ""), inputmode: "numeric" });
  } else {
    const [lo, hi] = data.option_ranges[opt];
    control = h("input", { id, name: id, type: "number", min: String(lo), max: String(hi),
                           value: kept ?? String(base), inputmode: "numeric" });
  }
  control.dataset.base = base === null ? "" : String(base);
  return field(id, t(`opt.${opt}`), control, help);
}

const NAME_CODES = new Set(["bad_name", "name_blank", "name_too_long", "name_reserved",
  "name_taken"]);

async function create(form, p, error, submits, nameError) {
  error.textContent = "";
  nameError.textContent = "";
  const v = (id) => form.querySelector(`#${id}`).value;
  const name = v("name").trim();
  if (!name) {  // nothing typed, or only spaces
    nameError.textContent = says({ code: v("name") ? "name_blank" : "name_empty" });
    form.querySelector("#name").focus();
    return;
  }
  // Numbers out of their range are said next to their field, before the server is asked.
  for (const el of form.querySelectorAll("input[type=number]")) {
    if (el.value !== "" && !el.checkValidity()) {
      const label = form.querySelector(`label[for="${el.id}"]`);
      error.textContent = t("create.out_of_range", { field: label ? label.textContent : el.id,
                                                     min: el.min, max: el.max });
      el.focus();
      return;
    }
  }
  localStorage.setItem("gnav.name", name);
  const options = {};
  const lives = Number(v("lives"));
  if (lives !== p.options.lives) options.lives = lives;
  const data = presetData();
  for (const opt of moreOptions()) {
    const el = form.querySelector(`#opt-${opt}`);
    const raw = el.value;
    if (raw === el.dataset.base) continue;
    if (data.option_bools.includes(opt)) options[opt] = raw === "true";
    else if (opt in data.option_at_least) options[opt] = raw === "" ? null : Number(raw);
    else if (data.option_ranges[opt]) options[opt] = Number(raw);
    else options[opt] = raw;
  }
  const timer = v("timer");
  const look = form.querySelector("input[name=look]:checked");
  const body = {
    preset: p.name, options, seats: Number(v("seats")), turn_timer: timer === "off" ? null : Number(timer),
    listed: form.querySelector("#listed").checked, bot: v("bot"), score: v("score"),
    look: look ? look.value : data.look_default, lang: v("calls"),
    coaching: !form.querySelector("#no-coaching").checked,
  };
  for (const b of submits) {
    b.disabled = true;
    b.textContent = t("create.busy");
  }
  try {
    const made = await api("POST", "/api/tables", { body });
    save(made.id, { host: made.host_token, invite: made.invite });
    const joined = await api("POST", `/api/tables/${made.id}/join`, { body: { name, invite: made.invite } });
    save(made.id, { seat: joined.seat, token: joined.token, name });
    const bots = Math.min(Number(v("bots")) || 0, body.seats - 1);
    for (let i = 0; i < bots; i++) {
      await api("POST", `/api/tables/${made.id}/bots`, { body: {}, token: made.host_token });
    }
    location.assign(`/t/${made.id}`);
  } catch (e) {
    (NAME_CODES.has(e.code) ? nameError : error).textContent = says(e);
    for (const b of submits) {
      b.disabled = false;
      b.textContent = t("create.submit");
    }
  }
}

// -- joining ----------------------------------------------------------------------------------

function joinForm() {
  const input = h("input", { id: "join-code", name: "code", autocomplete: "off", spellcheck: "false" });
  const error = h("p", { class: "error", role: "alert" });
  return h("form", { class: "panel join-panel", "aria-labelledby": "join-heading",
                     onsubmit: (e) => {
                       e.preventDefault();
                       const got = readInvite(input.value);
                       if (!got) { error.textContent = t("join.bad_code"); input.focus(); return; }
                       if (got.invite) save(got.id, { invite: got.invite });
                       location.assign(`/t/${got.id}#join`);
                     } },
    h("h2", { id: "join-heading", text: t("join.heading") }),
    h("label", { for: "join-code", text: t("join.code") }),
    h("div", { class: "row" }, input, h("button", { class: "btn primary", type: "submit", text: t("join.go") })),
    error);
}

function lobbyPanel() {
  return h("section", { class: "panel lobby-list", "aria-labelledby": "lobby-heading" },
    h("div", { class: "row spread" }, h("h2", { id: "lobby-heading", text: t("lobby.heading") }),
      h("button", { class: "btn small ghost", type: "button", onclick: refreshLobby, text: t("lobby.refresh") })),
    h("ul", { class: "tables", id: "open-tables", "aria-live": "polite" }));
}

async function refreshLobby() {
  const ul = document.getElementById("open-tables");
  if (!ul) return;
  let tables = [];
  try {
    tables = (await api("GET", "/api/tables")).tables;
  } catch (e) {
    clear(ul).append(h("li", { class: "muted", text: says(e) }));
    return;
  }
  clear(ul);
  if (!tables.length) ul.append(h("li", { class: "muted", text: t("lobby.none") }));
  const data = presetData();
  for (const x of tables) {
    const title = data.byName[x.preset] ? presetTitle(data.byName[x.preset], lang()) : x.preset;
    // A table with no open seat (or already playing) can only be watched: say so.
    const watch = x.open === 0 || x.phase !== "lobby";
    const timer = x.turn_timer ? t("lobby.timer", { n: Math.round(x.turn_timer) }) : t("lobby.no_timer");
    ul.append(h("li", { class: `table-line${watch ? " full" : ""}` },
      h("div", {}, h("strong", { text: x.players.map(namerByName(x.players)).join(", ") || x.id }),
        h("div", { class: "muted", text: t("lobby.line", { preset: title, taken: x.seats - x.open, seats: x.seats, timer })
          + (x.coaching === false ? ` · ${t("lobby.no_coaching")}` : "")
          + (x.phase === "playing" ? ` · ${t("lobby.playing")}` : x.open === 0 ? ` · ${t("lobby.full")}` : "") })),
      h("a", { class: `btn small${watch ? " ghost" : " primary"}`,
               href: `/t/${encodeURIComponent(x.id)}${watch ? "" : "#join"}`,
               text: watch ? t("lobby.watch") : t("lobby.join") })));
  }
}

