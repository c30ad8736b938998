// The companion's bookkeeping: a match of Gnav played at a real table, kept from what the
// table taps. A port of the engine's round and match (gnav.round, gnav.match) without the
// pieces: the table says what it sees (who stands, who asks, what a matador answers, what
// the stock gives) and, at the showdown, the pieces shown. From those the book applies the
// rules (turns, passes, the stock at the dealer, payments, the Cat's undo, the showdown,
// sitting out, elimination, the next dealer) and, once the pieces are known, works the deal
// out backwards so that every round becomes a round of a record (docs/spec/records.md).
//
// Pure data in, pure data out: every function takes a state (plain JSON, as localStorage
// keeps it) and returns a new one, never touching the old. No DOM here: the same module
// runs in node against the engine's test vectors (tests/test_companion_book.py).
//
// The rules themselves are not written here: what each piece does to a request, who a
// charge is paid to, whose turn is skipped and who pays or sits out at the showdown are
// read from the engine's rules kernel (gnav.kernel), which /static/presets.json serves
// with each preset. This file holds the loop that applies them.

export class TableError extends Error {}

const copy = (x) => JSON.parse(JSON.stringify(x));

// -- the rules --------------------------------------------------------------------------

// The rules kernel of a preset of /static/presets.json under ``options``: the kernel at
// the preset's own options with the fields of each changed option laid over it (each
// field follows from one option at most: gnav.kernel.preset_json).
export function kernelOf(preset, options) {
  const k = { ...preset.kernel.base };
  for (const [name, value] of Object.entries(options)) {
    if (value === preset.options[name]) continue;
    const byValue = preset.kernel.by_option[name];
    if (!byValue) continue;  // max_rounds: read from the options, a number
    const key = typeof value === "string" ? value : JSON.stringify(value);
    if (!(key in byValue)) throw new TableError(`${name} cannot be ${key}`);
    Object.assign(k, byValue[key]);
  }
  return k;
}

// The rules the book needs of a preset of /static/presets.json, with ``changes`` to its
// options (lives, pack, ...).
export function rulesOf(preset, changes = {}) {
  const options = { ...preset.options, ...changes };
  return {
    preset: preset.name,
    options,
    defaults: { ...preset.options },
    pieces: preset.pieces.map((p) => ({ id: p.id, power: p.power, fool: p.fool })),
    kernel: kernelOf(preset, options),
    min_seats: preset.min_seats,
    max_seats: preset.max_seats,
  };
}

// A match kept before the book read the kernel (its rules have none): the kernel of its
// preset and options, from /static/presets.json.
export function withKernel(m, preset) {
  if (m.rules.kernel) return m;
  return { ...m, rules: { ...m.rules, kernel: kernelOf(preset, m.rules.options) } };
}

function rank(rules, id) {
  const i = rules.pieces.findIndex((p) => p.id === id);
  if (i < 0) throw new TableError(`unknown piece ${id}`);
  return i;
}

const pieceOf = (rules, id) => rules.pieces[rank(rules, id)];
// What a piece does when asked to swap ({charge, outcome}), null for a plain piece.
const effectOf = (rules, id) => rules.kernel.effects[rank(rules, id)];
const isFool = (rules, id) => rules.kernel.fools[rank(rules, id)];
export const matadors = (rules) => rules.pieces.filter((_, i) => rules.kernel.effects[i]);
// Whether a matador passes the request on to the left (its answer is no stop).
export const passes = (rules, id) => effectOf(rules, id)?.outcome === "pass";

export function seatLimits(rules) {
  const deck = rules.kernel.deck.length;
  const most = rules.max_seats == null ? deck - 1 : Math.min(rules.max_seats, deck - 1);
  return [rules.min_seats, most];
}

// -- the match --------------------------------------------------------------------------

export function newMatch(rules, names, dealer) {
  const [lo, hi] = seatLimits(rules);
  if (names.length < lo || names.length > hi) {
    throw new TableError(`${rules.preset} takes ${lo} to ${hi} seats, not ${names.length}`);
  }
  if (new Set(names).size !== names.length) throw new TableError("seat names must be unique");
  const lives = names.map(() => rules.options.lives);
  return {
    v: 1, rules, names: [...names], lives, start: [...lives], out: [], sittingOut: [],
    dealer, rounds: 0, round: null, history: [], winners: null, last: null,
  };
}

function active(m) {
  const skip = new Set([...m.out, ...m.sittingOut]);
  return m.names.map((_, s) => s).filter((s) => !skip.has(s));
}

// Active seats clockwise from the dealer's left, the dealer last.
export function turnOrder(m) {
  const a = active(m);
  const d = a.indexOf(m.dealer);
  return [...a.slice(d + 1), ...a.slice(0, d + 1)];
}

// Deal a round: ``knocked`` are the seats that knocked (dealt a fool).
export function deal(m0, knocked = []) {
  if (m0.winners) throw new TableError("the match is over");
  if (m0.round && m0.round.phase !== "over") throw new TableError("a round is being played");
  const m = copy(m0);
  const seats = turnOrder(m);
  for (const s of knocked) {
    if (!seats.includes(s)) throw new TableError(`${m.names[s]} was not dealt in`);
  }
  m.rounds += 1;
  m.last = null;
  m.round = {
    number: m.rounds, dealer: m.dealer, seats, returning: m.sittingOut.length,
    lives: [...m.lives], knocked: [...knocked].sort((a, b) => a - b), phase: "play",
    turn: 0, pending: null, revealed: [], steps: [], actions: [], endedBy: null,
  };
  return m;
}

// The seat whose move the table is to tap, and what kind of move: "turn" (stand or
// swap), "answer" (the asked seat's answer, or the stock's: ``at`` is null), or the
// showdown. Null between rounds.
export function waiting(m) {
  const r = m.round;
  if (!r || m.winners && r.phase === "over") return null;
  if (r.phase === "over") return null;
  if (r.phase === "showdown") return { kind: "showdown" };
  if (r.pending) {
    const at = r.pending.target;
    return { kind: "answer", asker: r.seats[r.pending.asker],
             at: at === null ? null : r.seats[at], dealer: r.turn === r.seats.length - 1 };
  }
  return { kind: "turn", seat: r.seats[r.turn], dealer: r.turn === r.seats.length - 1 };
}

// The seat to act stands ("stand") or asks ("swap"): its left neighbour, or the stock
// when the dealer asks.
export function act(m0, action) {
  const m = copy(m0);
  const r = m.round;
  if (!r || r.phase !== "play" || r.pending) throw new TableError("no decision is due");
  const seat = r.seats[r.turn];
  r.actions.push([seat, action]);
  if (action === "stand") {
    r.steps.push({ k: "stand", p: r.turn });
    advance(m);
    return m;
  }
  if (action !== "swap") throw new TableError(`stand or swap, not ${action}`);
  r.steps.push({ k: "ask", p: r.turn });
  const last = r.seats.length - 1;
  r.pending = { asker: r.turn, target: r.turn === last ? null : r.turn + 1 };
  return m;
}

// What the asked seat (or the stock) answers: "swap" (a plain piece: the two swap; from
// the stock, the asker takes it), a matador's id, or "empty" (no stock left).
export function answer(m0, what) {
  const m = copy(m0);
  const r = m.round;
  if (!r || !r.pending) throw new TableError("nobody is asked");
  const { asker, target } = r.pending;
  const last = r.seats.length - 1;
  if (what === "swap") {
    if (target === null) r.steps.push({ k: "draw", a: asker });
    else r.steps.push({ k: "swap", a: asker, b: target });
    r.pending = null;
    advance(m);
    return m;
  }
  if (what === "empty") {
    if (target !== null) throw new TableError("only the stock can be empty");
    r.steps.push({ k: "empty", a: asker });
    r.pending = null;
    advance(m);
    return m;
  }
  const effect = effectOf(m.rules, what);
  if (!effect) throw new TableError(`${what} is no matador`);
  r.steps.push({ k: "answer", a: asker, b: target, piece: what });
  if (target !== null && !r.revealed.includes(target)) r.revealed.push(target);
  if (effect.charge) pay(m, asker, what, target);
  if (effect.outcome === "pass") {
    // On to the next seat; a pass at the dealer (or from the stock) goes to the stock.
    r.pending = { asker, target: target === null || target === last ? null : target + 1 };
    return m;
  }
  r.pending = null;
  if (effect.outcome === "stop") {
    r.endedBy = what;
    r.phase = "showdown";
    return m;
  }
  if (effect.outcome === "undo") r.steps.push({ k: "undo", by: target });
  advance(m);
  return m;
}

function pay(m, position, reason, to) {
  const r = m.round;
  const seat = r.seats[position];
  const paid = r.lives[seat] > 0;
  if (paid) r.lives[seat] -= 1;
  let holder = null;
  if (to !== null && to !== undefined && m.rules.kernel.to_holder) {
    holder = r.seats[to];
  }
  r.steps.push({ k: "pay", seat, to: holder, reason, paid, lives: r.lives[seat] });
  if (holder !== null && paid) {
    r.lives[holder] += 1;
    r.steps.push({ k: "gain", seat: holder, reason: "penalty", piece: reason,
                   lives: r.lives[holder] });
  }
}

function advance(m) {
  const r = m.round;
  const n = r.seats.length;
  let turn = r.turn + 1;
  if (m.rules.kernel.skip_revealed) {
    while (turn < n && r.revealed.includes(turn)) turn += 1;
  }
  r.turn = turn;
  if (turn >= n) {
    r.endedBy = "turns";
    r.phase = "showdown";
  }
}

// -- the showdown -----------------------------------------------------------------------

// How many pieces the table must name at the showdown beside the hands: one for each
// piece taken from the stock after the last undo (the asker's old piece, set aside).
export function asideNeeded(m) {
  const steps = m.round.steps;
  let from = 0;
  steps.forEach((s, i) => { if (s.k === "undo") from = i + 1; });
  return steps.slice(from).filter((s) => s.k === "draw").map((s) => m.round.seats[s.a]);
}

// The round's deal and stock worked out from what the table saw and the pieces shown:
// the hands at the showdown (by seat) and the pieces set aside by draws from the stock
// since the last undo (in the order drawn). Every answer the table tapped is checked
// against the pieces; ``problems`` says what does not add up.
export function reconstruct(m, handsBySeat, aside) {
  const rules = m.rules;
  const r = m.round;
  const n = r.seats.length;
  const problems = [];
  const name = (p) => m.names[r.seats[p]];
  const isMatador = (id) => Boolean(effectOf(rules, id));
  const final = r.seats.map((s) => handsBySeat[s]);
  if (final.some((x) => !x)) throw new TableError("every seat's piece is needed");
  let lastUndo = -1;
  r.steps.forEach((s, i) => { if (s.k === "undo") lastUndo = i; });
  const needs = asideNeeded(m).length;
  if (aside.length !== needs) throw new TableError(`${needs} pieces set aside are needed`);
  // Backwards from the showdown to the last undo (or the deal).
  const h = [...final];
  const drawnAfter = new Map();
  const left = [...aside];
  for (let i = r.steps.length - 1; i > lastUndo; i--) {
    const s = r.steps[i];
    if (s.k === "swap") [h[s.a], h[s.b]] = [h[s.b], h[s.a]];
    else if (s.k === "draw") {
      drawnAfter.set(i, h[s.a]);
      h[s.a] = left.pop();
    }
  }
  const dealt = h;
  // Forwards from the deal: every answer and swap checked, the stock written down.
  const count = new Map();
  const use = (id) => count.set(id, (count.get(id) || 0) + 1);
  dealt.forEach(use);
  const stock = [];
  let hands = [...dealt];
  const plainFiller = () => {
    // A piece drawn and undone before anyone saw it: any plain piece the deck has left.
    const free = rules.pieces.filter((p, i) => !rules.kernel.effects[i]
      && (count.get(p.id) || 0) < rules.options.copies);
    const fool = (p) => Number(isFool(rules, p.id));
    free.sort((a, b) => (fool(a) - fool(b)) || ((count.get(a.id) || 0) - (count.get(b.id) || 0)));
    return free.length ? free[0].id : null;
  };
  r.steps.forEach((s, i) => {
    if (s.k === "stand" && rules.kernel.stand_needs_matador && !isMatador(hands[s.p])) {
      problems.push({ id: "companion.problem.stand", seat: name(s.p), piece: hands[s.p] });
    } else if (s.k === "swap") {
      if (isMatador(hands[s.b])) {
        problems.push({ id: "companion.problem.swap", seat: name(s.b), piece: hands[s.b] });
      }
      [hands[s.a], hands[s.b]] = [hands[s.b], hands[s.a]];
    } else if (s.k === "answer") {
      if (s.b === null) {
        stock.push(s.piece);
        use(s.piece);
      } else if (hands[s.b] !== s.piece) {
        problems.push({ id: "companion.problem.answer", seat: name(s.b), piece: hands[s.b],
                        said: s.piece });
      }
    } else if (s.k === "draw") {
      const got = i > lastUndo ? drawnAfter.get(i) : plainFiller();
      if (got === null || isMatador(got)) {
        problems.push({ id: "companion.problem.draw", seat: name(s.a), piece: got });
      }
      stock.push(got);
      use(got);
      hands[s.a] = got;
    } else if (s.k === "undo") {
      hands = [...dealt];
    }
  });
  for (let p = 0; p < n; p++) {
    if (hands[p] !== final[p]) {
      problems.push({ id: "companion.problem.final", seat: name(p), piece: final[p] });
    }
  }
  if (rules.kernel.knock_public) {
    const fools = r.seats.filter((_, p) => isFool(rules, dealt[p]));
    const knocked = new Set(r.knocked);
    for (const s of r.seats) {
      if (fools.includes(s) !== knocked.has(s)) {
        problems.push({ id: fools.includes(s) ? "companion.problem.no_knock"
                                              : "companion.problem.knock",
                        seat: m.names[s] });
      }
    }
  }
  for (const [id, k] of count) {
    if (k > rules.options.copies) {
      problems.push({ id: "companion.problem.copies", piece: id, n: rules.options.copies });
    }
  }
  return { deal: dealt, stock, problems };
}

// What the fools do at a showdown: gnav.kernel's FOOLS_SHOWN, FOOLS_GAIN, FOOLS_PAY and
// FOOL_PAYS.
const FOOLS_SHOWN = 0, FOOLS_GAIN = 1, FOOLS_PAY = 2, FOOL_PAYS = 3;

// The showdown of ``hands`` (ranks by position, the dealer last), decided: gnav.kernel's
// ``showdown``, line for line (the one statement of it, which the engines run), reading
// the kernel's data. [lowest, fools, letOff]: every holder of rank ``lowest`` pays (-1:
// none) but position ``letOff``; ``fools`` says what every holder of a fool does besides.
function decide(k, hands) {
  const n = hands.length;
  let fools = 0;
  let lowest = -1;
  let others = -1; // the lowest of the pieces that are no fool
  for (let c = 0; c < n; c++) {
    const h = hands[c];
    if (k.fools[h]) fools += 1;
    else if (h > others) others = h;
    if (h > lowest) lowest = h;
  }
  if (fools >= 2 && k.two_fools !== "plain") {
    return [-1, k.two_fools === "gain" ? FOOLS_GAIN : FOOLS_PAY, -1];
  }
  let shown = FOOLS_SHOWN;
  if (fools === 1 && k.drag) {
    lowest = others;
    shown = FOOL_PAYS;
  }
  let letOff = -1;
  if (k.dealer_wins_ties && hands[n - 1] === lowest) {
    let count = 0;
    for (let c = 0; c < n; c++) if (hands[c] === lowest) count += 1;
    if (count > 1) letOff = n - 1;
  }
  return [lowest, shown, letOff];
}

// gnav.kernel.enough_play_on: ``out`` of the ``alive`` seats may sit the next round out
// only if at least 2 would still play it.
function enoughPlayOn(alive, out, returning) {
  return alive - out + returning >= 2;
}

// Who gains and who pays at the showdown of ``hands``, as gnav.kernel.Kernel.settle says
// it from the decision: the gains, the payments in order with their reasons, the fools
// who may sit out next, and the dealer let off a tie.
function settle(k, hands) {
  const [lowest, shown, letOff] = decide(k, hands);
  const fools = [];
  hands.forEach((h, p) => { if (k.fools[h]) fools.push(p); });
  if (shown === FOOLS_GAIN) return { gains: fools, pays: [], fools, letOff: -1 };
  if (shown === FOOLS_PAY) {
    return { gains: [], pays: fools.map((p) => [p, "two_fools"]), fools, letOff: -1 };
  }
  const pays = shown === FOOL_PAYS ? [[fools[0], "fool"]] : [];
  hands.forEach((h, p) => { if (h === lowest && p !== letOff) pays.push([p, "lowest"]); });
  return { gains: [], pays, fools: [], letOff };
}

// The showdown's payments, as the kernel settles them; the seats that sit out next.
function settleShowdown(m, final) {
  const k = m.rules.kernel;
  const r = m.round;
  const hands = final.map((id) => rank(m.rules, id));
  const settled = settle(k, hands);
  const { gains, pays, fools } = settled;
  let { letOff } = settled;
  for (const p of gains) {
    r.lives[r.seats[p]] += 1;
    r.steps.push({ k: "gain", seat: r.seats[p], reason: "two_fools", lives: r.lives[r.seats[p]] });
  }
  for (const [p, reason] of pays) {
    // The dealer let off a tie is said just before the lowest pay.
    if (reason === "lowest" && letOff >= 0) {
      r.steps.push({ k: "tie", seat: r.seats[letOff] });
      letOff = -1;
    }
    pay(m, p, reason, null);
  }
  // Gnav.kernel.Kernel.sit_out: the fools still alive, when there is a next round and
  // at least two seats would play it. The last round is the options' max_rounds.
  const maxRounds = m.rules.options.max_rounds;
  const last = maxRounds != null && r.number >= maxRounds;
  let sitOut = [];
  if (fools.length && k.two_fools_sit_out && !last) {
    sitOut = fools.filter((p) => r.lives[r.seats[p]] > 0);
    const alive = r.seats.filter((s) => r.lives[s] > 0).length;
    if (!enoughPlayOn(alive, sitOut.length, r.returning)) sitOut = [];
  }
  return sitOut.map((p) => r.seats[p]).sort((a, b) => a - b);
}

// The showdown entered: the hands (by seat) and the pieces set aside. Returns the match
// with the round settled and written as a record's round, or throws a TableError whose
// ``problems`` say what does not add up.
export function showdown(m0, handsBySeat, aside = []) {
  const m = copy(m0);
  const r = m.round;
  if (!r || r.phase !== "showdown") throw new TableError("the round is not at its showdown");
  const found = reconstruct(m, handsBySeat, aside);
  if (found.problems.length) {
    const e = new TableError("the pieces do not agree with the round");
    e.problems = found.problems;
    throw e;
  }
  const final = r.seats.map((s) => handsBySeat[s]);
  const before = [...r.lives];
  const paidAt = r.steps.length;
  const sitOut = settleShowdown(m, final);
  const names = m.names;
  const startOut = new Set(m.out);
  const record = {
    dealer: names[r.dealer],
    deal: Object.fromEntries(r.seats.map((s, p) => [names[s], found.deal[p]])),
    stock: found.stock,
    actions: r.actions.map(([s, a]) => [names[s], a]),
    result: {
      hands: Object.fromEntries(r.seats.map((s, p) => [names[s], final[p]])),
      lives: Object.fromEntries(names.map((nm, s) => [nm, r.lives[s]])
        .filter((_, s) => !startOut.has(s))),
      sit_out: sitOut.map((s) => names[s]),
      ended_by: r.endedBy,
    },
  };
  // Settle the match: a port of gnav.match.MatchState._settle.
  const lives = r.lives;
  const n = names.length;
  const gone = r.seats.filter((s) => lives[s] <= 0).sort((a, b) => a - b);
  m.out.push(...gone);
  let winners = null;
  if (gone.length) {
    const alive = names.map((_, s) => s).filter((s) => lives[s] > 0);
    if (alive.length === 1) winners = [alive[0]];
    else if (!alive.length) winners = gone;
  }
  const maxRounds = m.rules.options.max_rounds;
  if (winners === null && maxRounds != null && m.rounds >= maxRounds) {
    const inGame = names.map((_, s) => s).filter((s) => !m.out.includes(s));
    const best = Math.max(...inGame.map((s) => lives[s]));
    winners = inGame.filter((s) => lives[s] === best);
  }
  m.lives = [...lives];
  if (winners === null) {
    const skip = new Set([...m.out, ...sitOut]);
    let d = (m.dealer + 1) % n;
    while (skip.has(d)) d = (d + 1) % n;
    m.dealer = d;
    m.sittingOut = sitOut;
  } else {
    m.winners = winners;
    m.sittingOut = [];
    record.result.sit_out = [];
  }
  m.history.push(record);
  r.phase = "over";
  r.hands = handsBySeat;
  m.last = { round: r.number, before, steps: r.steps.slice(paidAt), sitOut, gone,
             winners, payments: r.steps.filter((s) => s.k === "pay" || s.k === "gain") };
  return m;
}

// -- the record -------------------------------------------------------------------------

// The match so far as a record (docs/spec/records.md): every round whose showdown was
// entered, the rules as the shortest spec, the result once the match is over.
export function toRecord(m) {
  const rules = m.rules;
  const changed = Object.fromEntries(Object.entries(rules.options)
    .filter(([k, v]) => rules.defaults[k] !== v));
  const rec = {
    gnav: 1,
    rules: Object.keys(changed).length ? { preset: rules.preset, ...changed } : rules.preset,
    seats: [...m.names],
    rounds: m.history,
  };
  if (m.winners) {
    rec.result = { winners: m.winners.map((s) => m.names[s]),
                   out: m.out.map((s) => m.names[s]) };
  }
  rec.x = { by: "gnav companion" };
  const r = m.round;
  if (r && r.phase !== "over") {
    // As gnav.record.from_match keeps a round under way: where readers ignore it, so a
    // match saved mid-round still verifies. Its pieces are not known before the showdown.
    rec.x.unfinished_round = {
      dealer: m.names[r.dealer], knocked: r.knocked.map((s) => m.names[s]),
      actions: r.actions.map(([s, a]) => [m.names[s], a]),
    };
  }
  return rec;
}

// The lives each seat has now, the round's payments so far included.
export function livesNow(m) {
  return m.round && m.round.phase !== "over" ? m.round.lives : m.lives;
}
