// A small helper to build elements without HTML strings (names come from other people:
// they only ever reach the page as text).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

// A short message that the screen reader hears and the eye sees for a moment.
export function toast(text, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const el = h("div", { class: `toast toast-${kind}`, text });
  box.append(el);
  setTimeout(() => el.remove(), kind === "error" ? 7000 : 3500);
}

const ICONS = {
  first: "M4 5h2.5v14H4zM13.5 5v14L7 12zM21 5v14l-6.5-7z",
  prevRound: "M12 5v14L3 12zM21 5v14l-9-7z",
  prev: "M6 5h2.5v14H6zM19 5v14L9.5 12z",
  play: "M7 5v14l11-7z",
  pause: "M6 5h4v14H6zM14 5h4v14h-4z",
  next: "M5 5v14l9.5-7zM15.5 5H18v14h-2.5z",
  nextRound: "M3 5v14l9-7zM12 5v14l9-7z",
  last: "M3 5v14l6.5-7zM10.5 5v14l6.5-7zM17.5 5H20v14h-2.5z",
  gear: "M12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7zm8.6 5.3-1.9-.3a6.9 6.9 0 0 1-.7 1.6l1.1 1.6-1.6 1.6-1.6-1.1a6.9 6.9 0 0 1-1.6.7l-.3 1.9h-2.2l-.3-1.9a6.9 6.9 0 0 1-1.6-.7L6.3 18.3l-1.6-1.6 1.1-1.6a6.9 6.9 0 0 1-.7-1.6l-1.9-.3v-2.4l1.9-.3c.2-.6.4-1.1.7-1.6L4.7 7.3l1.6-1.6 1.6 1.1c.5-.3 1-.5 1.6-.7l.3-1.9h2.4l.3 1.9c.6.2 1.1.4 1.6.7l1.6-1.1 1.6 1.6-1.1 1.6c.3.5.5 1 .7 1.6l1.9.3z",
  book: "M4 4.5C4 3.7 4.7 3 5.5 3H11v16H5.5c-.8 0-1.5.4-1.5 1.2zM20 4.5c0-.8-.7-1.5-1.5-1.5H13v16h5.5c.8 0 1.5.4 1.5 1.2z",
};

// A small icon drawn in SVG (no icon font: nothing is loaded from elsewhere).
export function icon(name) {
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  s.setAttribute("viewBox", "0 0 24 24");
  s.setAttribute("aria-hidden", "true");
  s.setAttribute("focusable", "false");
  s.setAttribute("class", "icon");
  const p = document.createElementNS("http://www.w3.org/2000/svg", "path");
  p.setAttribute("d", ICONS[name]);
  p.setAttribute("fill", "currentColor");
  s.append(p);
  return s;
}
