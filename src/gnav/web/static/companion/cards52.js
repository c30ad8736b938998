// The "cards52" look: a piece shown as the card of an ordinary pack that stands for it
// (docs/spec/rules.md §7.1). The mapping itself is the engine's (gnav.cards), sent with
// each preset in /static/presets.json as ``cards52[copies]``; nothing here decides it.

const SUIT = { H: "♥", D: "♦", S: "♠", C: "♣" };

export function cardText(code) {
  if (code === "RJ") return "Joker ♥";
  if (code === "BJ") return "Joker";
  return code.slice(0, -1) + SUIT[code.slice(-1)];
}

export const isRed = (code) => code === "RJ" || code.endsWith("H") || code.endsWith("D");

// The cards of piece ``id`` of ``preset`` in ``copies`` copies; [] when the preset does
// not fit an ordinary pack in that many.
export function cardsOf(preset, id, copies) {
  const m = preset.cards52 && preset.cards52[String(copies)];
  return (m && m.cards && m.cards[id]) || [];
}

export function fitProblem(preset, copies) {
  const m = preset.cards52 && preset.cards52[String(copies)];
  return m ? m.problem || null : "no mapping";
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

// One card as SVG markup (64 × 90): the card's corner index, its suit large in the
// middle, and the piece's name along the foot. ``code`` null: the card's back.
export function cardMarkup(code, name = "") {
  if (!code) {
    return `<svg viewBox="0 0 64 90" class="c52 c52-back" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="62" height="88" rx="6" fill="#fbf6ea" stroke="#3b2412"/>
      <rect x="5" y="5" width="54" height="80" rx="3" fill="#1d4e89"/>
      <path d="M5 5 59 85M59 5 5 85" stroke="#7fa7d6" stroke-width="1.2"/></svg>`;
  }
  const joker = code === "RJ" || code === "BJ";
  const ink = isRed(code) ? "#b3261e" : "#1b1b1b";
  const rank = joker ? "★" : code.slice(0, -1);
  const suit = joker ? "🃏" : SUIT[code.slice(-1)];
  const label = esc(name).slice(0, 14);
  return `<svg viewBox="0 0 64 90" class="c52" role="img" aria-label="${esc(cardText(code))}${name ? `: ${esc(name)}` : ""}" focusable="false">
    <rect x="1" y="1" width="62" height="88" rx="6" fill="#fffdf7" stroke="#3b2412"/>
    <text x="6" y="16" font-family="Georgia, 'DejaVu Serif', serif" font-weight="700" font-size="${rank.length > 1 ? 11 : 13}" fill="${ink}">${esc(rank)}</text>
    <text x="6" y="28" font-size="11" fill="${ink}">${joker ? "" : suit}</text>
    <text x="32" y="${joker ? 54 : 57}" text-anchor="middle" font-size="${joker ? 26 : 30}" fill="${ink}">${suit}</text>
    ${label ? `<text x="32" y="82" text-anchor="middle" font-family="system-ui, sans-serif" font-size="${label.length > 9 ? 7 : 8.5}" fill="#3b2412">${label}</text>` : ""}
  </svg>`;
}
