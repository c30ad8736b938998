// What went wrong, in a sentence of the page's language. The server (HTTP API and the
// table's socket) answers with a machine code and a one-line reason meant for
// developers; a person reads the sentence for the code, never the reason.

import { t, has } from "./i18n.js";

export const NAME_MAX = 24;  // as the server's (gnav.table.table.NAME_MAX)

// Codes that say the same thing to a person share one sentence. Every code the server
// sends (gnav.errors.Code) has a sentence, err.<code> or one named here: tests/test_errors.py.
const SAME = {
  no_host_token: "not_host", bad_json: "bad_request", bad_body: "bad_request",
  bad_frame: "bad_request", bad_message: "bad_request", bad_type: "bad_request",
  no_hello: "bad_request", bad_game: "no_record", method_not_allowed: "not_found",
  not_playing: "stale", not_your_turn: "stale", closed: "stale", store_failed: "internal", no_odds: "not_found",
};

// The field a "field: reason" line of a refused table names, in the page's words.
const FIELDS = {
  seats: "create.seats", turn_timer: "create.timer", options: "create.more", lives: "create.lives",
  lang: "create.calls", score: "create.score", look: "create.look", bot: "create.bot",
  preset: "create.preset",
};

export function errorCode(err) {
  return (err && err.code) || "unknown";
}

export function says(err) {
  const code = errorCode(err);
  if (code === "bad_config" || code === "bad_field") {
    const parts = String((err && (err.reason || err.message)) || "").split(":").map((x) => x.trim());
    // "options: drag: ..." names the option itself.
    const key = parts[0] === "options" && FIELDS[parts[1]] ? FIELDS[parts[1]]
      : parts[0] === "options" && has(`opt.${parts[1]}`) ? `opt.${parts[1]}` : FIELDS[parts[0]];
    if (key) return t("err.bad_field", { field: t(key) });
  }
  const key = `err.${SAME[code] || code}`;
  if (has(key)) return t(key, { status: (err && err.status) || "", max: NAME_MAX });
  return t("err.unknown");
}

// A name field says so when a name reaches the limit (the field cuts what is typed or
// pasted beyond it).
export function nameLimit(input, note) {
  const check = () => {
    const cut = input.value.length >= NAME_MAX;
    if (cut) note.textContent = says({ code: "name_too_long" });
    else if (note.dataset.cut) note.textContent = "";
    note.dataset.cut = cut ? "1" : "";
  };
  input.addEventListener("input", check);
  input.addEventListener("paste", () => setTimeout(check, 0));
}
