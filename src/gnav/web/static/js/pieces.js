// Pieces drawn as SVG: turned wooden pawns with their symbol painted on the head, or
// cards. A hidden piece is the bare wood (or a card's back). And lives, as tokens,
// strokes or the letters G-N-A-V.

import { piece, pieceName } from "./presets.js";
import { t } from "./i18n.js";
import { cardsOf, cardMarkup, isRed } from "../companion/cards52.js";

const NS = "http://www.w3.org/2000/svg";

export function svgEl(tag, attrs = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

// Shared gradients and patterns, once per document.
export function installDefs() {
  if (document.getElementById("gnav-defs")) return;
  const s = svgEl("svg", { id: "gnav-defs", width: 0, height: 0, "aria-hidden": "true",
                           focusable: "false", class: "defs" });
  s.innerHTML = `<defs>
    <linearGradient id="g-wood" x1="0" x2="1" y1="0" y2="0">
      <stop offset="0" stop-color="#6e4322"/><stop offset=".32" stop-color="#d9a56b"/>
      <stop offset=".55" stop-color="#b97d45"/><stop offset="1" stop-color="#5a3418"/>
    </linearGradient>
    <radialGradient id="g-head" cx=".36" cy=".32" r=".75">
      <stop offset="0" stop-color="#f0c48f"/><stop offset=".5" stop-color="#c48a50"/>
      <stop offset="1" stop-color="#6b3f1d"/>
    </radialGradient>
    <radialGradient id="g-gold" cx=".4" cy=".35" r=".8">
      <stop offset="0" stop-color="#fff1c2"/><stop offset=".6" stop-color="#f0c85a"/>
      <stop offset="1" stop-color="#b8862b"/>
    </radialGradient>
    <radialGradient id="g-red" cx=".4" cy=".35" r=".8">
      <stop offset="0" stop-color="#f08a7a"/><stop offset=".6" stop-color="#c0392b"/>
      <stop offset="1" stop-color="#7d1f16"/>
    </radialGradient>
    <radialGradient id="g-ivory" cx=".4" cy=".35" r=".8">
      <stop offset="0" stop-color="#fffdf6"/><stop offset=".7" stop-color="#f1e4c6"/>
      <stop offset="1" stop-color="#cdb98e"/>
    </radialGradient>
    <pattern id="g-back" width="8" height="8" patternUnits="userSpaceOnUse"
             patternTransform="rotate(45)">
      <rect width="8" height="8" fill="#7a1d22"/>
      <path d="M0 4 H8 M4 0 V8" stroke="#b8434a" stroke-width="1.2"/>
    </pattern>
  </defs>`;
  document.body.prepend(s);
}

// -- symbols, drawn in a 24 × 24 box ------------------------------------------------------

const G = {
  bird: (i, l) => `<path fill="${i}" d="M3.5 13.5C5 10 9 8.5 13 9.5 14 6.5 16.5 5 19 6c1.5.7 2.3 2 2.3 3l2.2 1-2.5.8c-.5 3.7-3.5 6.7-8 7-4 .2-7-.8-9.2-2.4l-3 1.1 1.2-3.3z"/>
    <circle cx="18.6" cy="8.4" r="1.1" fill="${l}"/>
    <path d="M9 12.6c2-1.5 4.5-1 6 .5" stroke="${l}" stroke-width="1.1" fill="none"/>
    <path d="M11 17.6 10 21.5M14 17.5l.6 4" stroke="${i}" stroke-width="1.4" stroke-linecap="round"/>`,
  sword: (i) => `<path fill="${i}" d="M19.5 2.2 21.8 4.5 9 17.2 6.8 15z"/>
    <path d="M4.3 13.3l6.4 6.4" stroke="${i}" stroke-width="2.3" stroke-linecap="round"/>
    <path d="M7.6 16.4 3.6 20.4" stroke="${i}" stroke-width="2.7" stroke-linecap="round"/>
    <circle cx="2.9" cy="21.1" r="1.7" fill="${i}"/>`,
  cat: (i, l) => `<path fill="${i}" d="M4.5 10 4 2.5l5.5 4.3c1.7-.5 3.3-.5 5 0L20 2.5l-.5 7.5c1.5 2.5 1.1 6.5-1.5 8.8-1.8 1.6-3.8 2.2-6 2.2s-4.2-.6-6-2.2C3.4 16.5 3 12.5 4.5 10z"/>
    <ellipse cx="9" cy="12.4" rx="1.6" ry="2.1" fill="${l}"/><ellipse cx="15" cy="12.4" rx="1.6" ry="2.1" fill="${l}"/>
    <path d="M11 15.8h2l-1 1.3z" fill="${l}"/>
    <path d="M5.5 16.2 9 16.6M5.8 18l3.2-.6M18.5 16.2 15 16.6M18.2 18l-3.2-.6" stroke="${l}" stroke-width=".6"/>`,
  horse: (i, l) => `<path fill="${i}" d="M8 22h11c.5-4 .5-7-.5-10-1-4-3.5-7-7-8l-1-2.5L9 4.5C6.5 5.5 4.5 8 3 11.5l-.5 2c.5 1.5 2 2 3.5 1.2l3.5-1.9c1 .7 1.3 2.2.5 3.7C9 18.3 8.2 20 8 22z"/>
    <circle cx="8.8" cy="8" r="1.05" fill="${l}"/>
    <path d="M13 5.5c2.5 1.5 4 4 4.5 7.5" stroke="${l}" stroke-width=".9" fill="none"/>`,
  house: (i, l) => `<path fill="${i}" d="M2.5 12 12 3.5l9.5 8.5H19v9.5H5V12z"/>
    <rect x="15.4" y="4.2" width="2.3" height="4.5" fill="${i}"/>
    <rect x="10" y="14.5" width="4" height="7" fill="${l}"/>
    <rect x="6.6" y="13" width="2.6" height="2.6" fill="${l}"/><rect x="14.8" y="13" width="2.6" height="2.6" fill="${l}"/>`,
  pot: (i, l) => `<path fill="${i}" d="M3.8 6.5h16.4v3H3.8z"/><path fill="${i}" d="M5.2 10.4h13.6L17 21H7z"/>
    <path d="M7.6 13.2h8.8" stroke="${l}" stroke-width=".9"/>
    <path d="M12 6.3C11 4 9.5 3 7.5 3M12 6.3c.8-2.3 2.3-3.6 4.5-3.8" stroke="${i}" stroke-width="1.3" fill="none"/>`,
  owl: (i, l) => `<path fill="${i}" d="M5 5.5 8 8.4c2.6-.9 5.4-.9 8 0l3-2.9-.2 5.4c1.7 3 1.2 7.6-1.8 9.6-1.8 1.1-3.4 1.5-5 1.5s-3.2-.4-5-1.5c-3-2-3.5-6.6-1.8-9.6z"/>
    <circle cx="9" cy="12.5" r="2.9" fill="${l}"/><circle cx="15" cy="12.5" r="2.9" fill="${l}"/>
    <circle cx="9" cy="12.5" r="1.25" fill="${i}"/><circle cx="15" cy="12.5" r="1.25" fill="${i}"/>
    <path d="M11 15.2h2l-1 2z" fill="${l}"/>`,
  fool: (i, l) => `<path fill="${i}" d="M4 20h16l-1-3.5c.5-4.5 1.5-8 3.5-10.5-4.5.5-7.5 3.5-8.7 7.5-.2-4-.8-7.5-1.8-10.7-1 3.2-1.6 6.7-1.8 10.7C9 9.5 6 6.5 1.5 6c2 2.5 3 6 3.5 10.5z"/>
    <circle cx="22.4" cy="6" r="1.7" fill="${i}"/><circle cx="12" cy="2.8" r="1.7" fill="${i}"/><circle cx="1.6" cy="6" r="1.7" fill="${i}"/>
    <path d="M4.6 18.1h14.8" stroke="${l}" stroke-width="1"/>`,
  crown: (i, l) => `<path fill="${i}" d="M3 18 2 7l5.5 4.5L12 4.5l4.5 7L22 7l-1 11z"/><rect x="3" y="19" width="18" height="2.6" fill="${i}"/>
    <circle cx="12" cy="14.6" r="1.6" fill="${l}"/>`,
  queen: (i, l) => `<path fill="${i}" d="M4 18 3 9.5 8 13l4-5 4 5 5-3.5-1 8.5z"/><rect x="4" y="19" width="16" height="2.6" fill="${i}"/>
    <circle cx="3" cy="8.3" r="1.5" fill="${i}"/><circle cx="12" cy="6.8" r="1.5" fill="${i}"/><circle cx="21" cy="8.3" r="1.5" fill="${i}"/>
    <circle cx="12" cy="15" r="1.3" fill="${l}"/>`,
  jack: (i) => `<path fill="${i}" d="M4 16c0-6 4-9 8.5-9s7.5 3 7.5 7l2 2z"/><path fill="${i}" d="M3 16.2h19v2.2H3z"/>
    <path fill="${i}" d="M13 7c2-4 5-5 8-4.5-3 1-5 2.5-6.5 5z"/>`,
  bread: (i, l) => `<path fill="${i}" d="M3 15c0-6 4.5-9 9-9s9 3 9 9v3c0 1.5-1 2-2 2H5c-1 0-2-.5-2-2z"/>
    <path d="M8 9.5 10 12M12 9l2 2.5M16 9.5l2 2.5" stroke="${l}" stroke-width="1.1" stroke-linecap="round"/>`,
  face: (i, l) => `<circle cx="12" cy="12" r="9.5" fill="${i}"/>
    <ellipse cx="8.6" cy="10" rx="1.6" ry="2.2" fill="${l}"/><ellipse cx="15.4" cy="10" rx="1.6" ry="2.2" fill="${l}"/>
    <path d="M7.5 15c2.5 2.8 6.5 2.8 9 0" stroke="${l}" stroke-width="1.5" fill="none" stroke-linecap="round"/>`,
  bucket: (i, l) => `<path fill="${i}" d="M5 9h14l-2 12H7z"/><path d="M5 9c0-7 14-7 14 0" stroke="${i}" stroke-width="1.6" fill="none"/>
    <path d="M6.5 12.5h11" stroke="${l}" stroke-width=".9"/>`,
  lion: (i, l) => `<circle cx="12" cy="12" r="10.5" fill="${i}"/><circle cx="12" cy="12.6" r="6.6" fill="${l}"/>
    <circle cx="9.8" cy="11.2" r="1.05" fill="${i}"/><circle cx="14.2" cy="11.2" r="1.05" fill="${i}"/>
    <path d="M10.5 14.1h3L12 16z" fill="${i}"/>`,
  wreath: (i) => {
    let leaves = "";
    for (let k = 0; k < 10; k++) {
      const a = (k * 36 * Math.PI) / 180;
      const x = 12 + 8 * Math.cos(a), y = 12 + 8 * Math.sin(a);
      leaves += `<ellipse cx="${x.toFixed(2)}" cy="${y.toFixed(2)}" rx="2.6" ry="1.3" fill="${i}" transform="rotate(${k * 36 + 60} ${x.toFixed(2)} ${y.toFixed(2)})"/>`;
    }
    return `<circle cx="12" cy="12" r="8" fill="none" stroke="${i}" stroke-width="1.4"/>${leaves}`;
  },
  leaf: (i, l) => `<path fill="${i}" d="M4 20C4 10 10 4 20 4c0 10-6 16-16 16z"/><path d="M4 20 15 9" stroke="${l}" stroke-width="1"/>`,
  mug: (i, l) => `<path fill="${i}" d="M5 7h11v14H5z"/><path d="M16 9.5c5 0 5 7.5 0 7.5" stroke="${i}" stroke-width="2.1" fill="none"/>
    <path d="M4.4 7.5C4 4 8 3.5 10 4.2 12 2.8 17 3.5 16.6 7.5z" fill="${l}" stroke="${i}" stroke-width="1"/>`,
  jump: (i) => `<path d="M3 19C5 9 14 6.5 18.5 11" stroke="${i}" stroke-width="2.6" fill="none" stroke-linecap="round"/>
    <path fill="${i}" d="m21.5 7-.4 7.6-5.8-4z"/>`,
};

const GLYPH = {
  cuckoo: "bird", cucco: "bird", kuku: "bird", vogel: "bird",
  dragoon: "sword", ruiter: "sword", bragon: "sword", husar: "sword",
  cat: "cat", poesje: "cat", gnao: "cat",
  horse: "horse", kavall: "horse", salta: "jump",
  house: "house", herberg: "house", husu: "house", osteria: "mug", vardshus: "mug",
  pot: "pot", pispot: "pot", blompottan: "pot", secchia: "bucket",
  owl: "owl", fool: "fool", matto: "fool", janrit: "fool",
  wittebrood: "bread", smoel: "face", mascherone: "face", leone: "lion",
  kransen: "wreath", blaren: "leaf", king: "crown", queen: "queen", jack: "jack",
};

// The short label of a piece: its numeral, or the first letter of its name.
export function pieceLabel(p, id, lang) {
  const x = piece(p, id);
  if (/^\d+$/.test(id)) return x.names.en || id;
  if (id === "ace") return "A";
  return pieceName(p, id, lang).charAt(0).toUpperCase();
}

function kindOf(p, id) {
  const x = piece(p, id);
  return x.power ? "matador" : x.fool ? "fool" : "plain";
}

// ``tall``: a numeral as tall as a short one, its letters narrowed to the box instead
// (the compact pieces of a crowded board, where every pixel of height is needed).
function symbol(p, id, ink, light, { tall = false } = {}) {
  const name = GLYPH[id];
  if (name) return G[name](ink, light);
  const label = id === "ace" ? "A" : (piece(p, id).names.en || id);
  const size = tall ? (label.length >= 2 ? 13 : 16)
    : label.length >= 4 ? 8.5 : label.length === 3 ? 10.5 : label.length === 2 ? 13 : 16;
  const fit = tall && label.length >= 3 ? ` textLength="23" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text x="12" y="12.6" text-anchor="middle" dominant-baseline="central" fill="${ink}"
    font-family="Georgia, 'DejaVu Serif', serif" font-weight="700" font-size="${size}"${fit}>${label}</text>`;
}

const FILL = { matador: "url(#g-gold)", fool: "url(#g-red)", plain: "url(#g-ivory)" };
const INK = { matador: "#3a2208", fool: "#fff4e8", plain: "#2b1a0e" };
const LIGHT = { matador: "#fff6d8", fool: "#7d1f16", plain: "#f7efdc" };

// One piece as an SVG element. id null: hidden (the wood, or the card's back).
// ``compact``: drawn for a crowded board, all figure: a pawn seen from above (its painted
// head), a card as its index alone, so that a piece a few dozen pixels wide still reads.
export function pieceSVG(p, id, { look = "pawns", lang = "en", label = true, compact = false } = {}) {
  const hidden = id === null || id === undefined;
  // An ordinary pack shows a piece as its first card; a game that does not fit one keeps
  // the Gnav cards.
  const card52 = look === "cards52" && (hidden ? null : cardsOf(p, id, p.options.copies)[0]);
  const s = look === "cards52" && (hidden || card52)
    ? (compact ? card52Compact(card52) : card52SVG(card52, hidden ? "" : pieceName(p, id, lang)))
    : look !== "pawns" ? (compact ? cardCompact(p, id, hidden) : cardSVG(p, id, hidden))
    : compact ? pawnCompact(p, id, hidden) : pawnSVG(p, id, hidden);
  s.classList.add("piece", look === "pawns" ? "pawn" : "card");
  if (compact) s.classList.add("compact");
  if (hidden) {
    s.classList.add("hidden-piece");
    s.setAttribute("role", "img");
    s.setAttribute("aria-label", t("seat.hidden"));
  } else {
    s.dataset.piece = id;
    s.classList.add(`k-${kindOf(p, id)}`);
    s.setAttribute("role", "img");
    s.setAttribute("aria-label", pieceName(p, id, lang));
    if (label) {
      const title = svgEl("title");
      title.textContent = pieceName(p, id, lang);
      s.prepend(title);
    }
  }
  return s;
}

function card52SVG(code, name) {
  const box = document.createElement("div");
  box.innerHTML = cardMarkup(code || null, name);
  const s = box.firstElementChild;
  s.removeAttribute("role");
  s.removeAttribute("aria-label");
  s.removeAttribute("aria-hidden");
  return s;
}

function pawnSVG(p, id, hidden) {
  const s = svgEl("svg", { viewBox: "0 0 60 100", focusable: "false" });
  let top = "";
  if (!hidden) {
    const k = kindOf(p, id);
    top = `<circle cx="30" cy="25" r="13.6" fill="${FILL[k]}" stroke="#3b2412" stroke-width="1.2"/>
      <g transform="translate(18.3 13.3) scale(.975)">${symbol(p, id, INK[k], LIGHT[k])}</g>`;
  } else {
    top = `<circle cx="30" cy="25" r="9" fill="none" stroke="#5a3418" stroke-opacity=".35" stroke-width="1.2"/>
      <circle cx="30" cy="25" r="3" fill="#5a3418" fill-opacity=".3"/>`;
  }
  s.innerHTML = `<ellipse cx="30" cy="94" rx="25" ry="4.5" fill="#000" fill-opacity=".28"/>
    <path d="M5 84c0-4 7-5 25-5s25 1 25 5v4c0 5-11 7-25 7S5 93 5 88z" fill="url(#g-wood)" stroke="#3b2412" stroke-width="1"/>
    <path d="M19 46c0 12-5 26-9 36h40c-4-10-9-24-9-36z" fill="url(#g-wood)" stroke="#3b2412" stroke-width="1"/>
    <path d="M13.5 72c10 2.5 23 2.5 33 0M16 62c8 2 20 2 28 0" stroke="#3b2412" stroke-opacity=".35" stroke-width="1" fill="none"/>
    <ellipse cx="30" cy="45.5" rx="14" ry="4" fill="url(#g-wood)" stroke="#3b2412" stroke-width="1"/>
    <circle cx="30" cy="25" r="18" fill="url(#g-head)" stroke="#3b2412" stroke-width="1"/>
    ${top}`;
  return s;
}

// A pawn seen from above: its head, painted, filling the drawing.
function pawnCompact(p, id, hidden) {
  const s = svgEl("svg", { viewBox: "0 0 40 40", focusable: "false" });
  const wood = `<circle cx="20" cy="20" r="19" fill="url(#g-head)" stroke="#3b2412" stroke-width="1"/>`;
  if (hidden) {
    s.innerHTML = `${wood}<circle cx="20" cy="20" r="11" fill="none" stroke="#5a3418" stroke-opacity=".45" stroke-width="1.4"/>
      <circle cx="20" cy="20" r="4" fill="#5a3418" fill-opacity=".35"/>`;
    return s;
  }
  const k = kindOf(p, id);
  s.innerHTML = `${wood}<circle cx="20" cy="20" r="16.5" fill="${FILL[k]}" stroke="#3b2412" stroke-width="1"/>
    <g transform="translate(5.6 5.6) scale(1.2)">${symbol(p, id, INK[k], LIGHT[k], { tall: true })}</g>`;
  return s;
}

// A card reduced to its figure: the band of its kind round the symbol or numeral.
function cardCompact(p, id, hidden) {
  const s = svgEl("svg", { viewBox: "0 0 40 52", focusable: "false" });
  if (hidden) {
    s.innerHTML = `<rect x=".5" y=".5" width="39" height="51" rx="4" fill="#fbf6ea" stroke="#3b2412"/>
      <rect x="3" y="3" width="34" height="46" rx="2" fill="url(#g-back)"/>`;
    return s;
  }
  const k = kindOf(p, id);
  const band = { matador: "#e2b53f", fool: "#c0392b", plain: "#fbf6ea" }[k];
  const ink = k === "fool" ? "#a32a1f" : "#2b1a0e";
  s.innerHTML = `<rect x=".5" y=".5" width="39" height="51" rx="4" fill="#fffdf7" stroke="#3b2412"/>
    <rect x="2.5" y="2.5" width="35" height="47" rx="2.5" fill="none" stroke="${band}" stroke-width="2.4"/>
    <g transform="translate(4.4 10.4) scale(1.3)">${symbol(p, id, ink, "#fffdf7", { tall: true })}</g>`;
  return s;
}

// A card of an ordinary pack reduced to its index: the rank over the suit, large.
function card52Compact(code) {
  const s = svgEl("svg", { viewBox: "0 0 40 52", focusable: "false" });
  if (!code) {
    s.innerHTML = `<rect x=".5" y=".5" width="39" height="51" rx="4" fill="#fbf6ea" stroke="#3b2412"/>
      <rect x="3" y="3" width="34" height="46" rx="2" fill="#1d4e89"/>
      <path d="M3 3 37 49M37 3 3 49" stroke="#7fa7d6" stroke-width="1"/>`;
    return s;
  }
  const joker = code === "RJ" || code === "BJ";
  const ink = isRed(code) ? "#b3261e" : "#1b1b1b";
  const rank = joker ? "★" : code.slice(0, -1);
  const suit = joker ? "J" : { H: "♥", D: "♦", S: "♠", C: "♣" }[code.slice(-1)];
  const fit = rank.length > 1 ? ` textLength="30" lengthAdjust="spacingAndGlyphs"` : "";
  s.innerHTML = `<rect x=".5" y=".5" width="39" height="51" rx="4" fill="#fffdf7" stroke="#3b2412"/>
    <text x="20" y="22" text-anchor="middle" font-family="Georgia, 'DejaVu Serif', serif" font-weight="700"
      font-size="21" fill="${ink}"${fit}>${rank}</text>
    <text x="20" y="45" text-anchor="middle" font-size="20" fill="${ink}">${suit}</text>`;
  return s;
}

function cardSVG(p, id, hidden) {
  const s = svgEl("svg", { viewBox: "0 0 64 90", focusable: "false" });
  if (hidden) {
    s.innerHTML = `<rect x="1" y="1" width="62" height="88" rx="6" fill="#fbf6ea" stroke="#3b2412" stroke-width="1"/>
      <rect x="5" y="5" width="54" height="80" rx="3" fill="url(#g-back)"/>
      <rect x="5" y="5" width="54" height="80" rx="3" fill="none" stroke="#f3d9a4" stroke-width="1.2"/>`;
    return s;
  }
  const k = kindOf(p, id);
  const x = piece(p, id);
  const label = /^\d+$/.test(id) ? (x.names.en || id) : id === "ace" ? "A" :
    (x.names[p.lang] || x.names.en || id).charAt(0).toUpperCase();
  const band = { matador: "#e2b53f", fool: "#c0392b", plain: "#fbf6ea" }[k];
  const ink = k === "fool" ? "#a32a1f" : "#2b1a0e";
  s.innerHTML = `<rect x="1" y="1" width="62" height="88" rx="6" fill="#fffdf7" stroke="#3b2412" stroke-width="1"/>
    <rect x="5" y="5" width="54" height="80" rx="3" fill="none" stroke="${band}" stroke-width="2.4"/>
    <text x="9" y="17" font-family="Georgia, 'DejaVu Serif', serif" font-weight="700" font-size="${label.length > 2 ? 8 : 11}" fill="${ink}">${label}</text>
    <text x="55" y="73" transform="rotate(180 55 73)" font-family="Georgia, 'DejaVu Serif', serif" font-weight="700" font-size="${label.length > 2 ? 8 : 11}" fill="${ink}">${label}</text>
    <g transform="translate(12.8 25.8) scale(1.6)">${symbol(p, id, ink, "#fffdf7")}</g>`;
  return s;
}

// -- lives ---------------------------------------------------------------------------------

export function livesEl(score, lives, start, { compact = false } = {}) {
  const el = document.createElement("span");
  el.className = `lives lives-${score}`;
  const label = lives === 1 ? t("seat.one_life") : t("seat.lives", { n: lives });
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  el.title = label;
  const lost = Math.max(0, start - lives);
  const extra = Math.max(0, lives - start);
  if (compact || lives > 12 || start > 12) {
    // One mark of the table's style, then the number.
    el.classList.add("lives-number");
    if (score === "gnav") {
      const b = document.createElement("b");
      b.className = "gnav-letter";
      b.textContent = lost > 0 ? "GNAV".repeat(3).slice(0, Math.min(lost, 4)) : "";
      if (lost > 0) el.append(b);
    } else {
      const mark = document.createElement("i");
      mark.className = score === "strokes" ? "stroke-mark" : "token token-full";
      el.append(mark);
    }
    el.append(String(lives));
    return el;
  }
  if (score === "strokes") {
    const w = Math.max(1, lives + lost) * 5 + 6;
    const s = svgEl("svg", { viewBox: `0 0 ${w} 16`, width: w, height: 16, "aria-hidden": "true",
                             focusable: "false" });
    let marks = `<rect x="0" y="0" width="${w}" height="16" rx="3" fill="#2f3a35"/>`;
    for (let k = 0; k < lives; k++) {
      const x = 4 + k * 5;
      marks += `<path d="M${x} 3.5 L${x + 0.8} 12.5" stroke="#f4f1e6" stroke-width="1.6" stroke-linecap="round"/>`;
    }
    for (let k = 0; k < lost; k++) {
      const x = 4 + (lives + k) * 5;
      marks += `<circle cx="${x + 0.4}" cy="8" r="0.9" fill="#f4f1e6" fill-opacity=".45"/>`;
    }
    s.innerHTML = marks;
    el.append(s);
  } else if (score === "gnav") {
    const letters = "GNAV".repeat(3).slice(0, lost);
    for (const ch of letters) {
      const b = document.createElement("b");
      b.className = "gnav-letter";
      b.textContent = ch;
      el.append(b);
    }
    for (let k = 0; k < Math.min(lives, start); k++) {
      const i = document.createElement("i");
      i.className = "gnav-dot";
      el.append(i);
    }
  } else {
    for (let k = 0; k < lives - extra; k++) el.append(token("full"));
    for (let k = 0; k < extra; k++) el.append(token("extra"));
    for (let k = 0; k < lost; k++) el.append(token("lost"));
  }
  return el;
}

function token(kind) {
  const i = document.createElement("i");
  i.className = `token token-${kind}`;
  return i;
}

export function tokenEl() {
  const i = document.createElement("i");
  i.className = "token token-full token-fly";
  return i;
}

// A winner's crown.
export function crownSVG() {
  const s = svgEl("svg", { viewBox: "0 0 24 24", focusable: "false", "aria-hidden": "true",
                           class: "crown" });
  s.innerHTML = G.crown("url(#g-gold)", "#c0392b").replace(/<rect/, '<rect stroke="#7a5a12" stroke-width=".5"')
    + '<path d="M3 18 2 7l5.5 4.5L12 4.5l4.5 7L22 7l-1 11z" fill="none" stroke="#7a5a12" stroke-width=".6"/>';
  return s;
}
