// The table page's one store, and what the page knows of the round in it.
//
// The round (emptyState, applyEvent) is rebuilt from the events the page was sent: who
// has acted, which matadors are shown, who knocked, the showdown, lives, the stock.
// Events carry seat names; ``me`` is the reader's name (null: a spectator). The replay
// viewer uses the round alone.
//
// The table page (tableState, reduce) keeps everything it draws in one object that only
// ``reduce`` changes: the table as the server last said it, this browser's tokens for it,
// the round, the log, what the reader has sent, whether events are being played,
// stand-ins, the hint, the join error. Every panel (js/panels/) draws from it; besides
// it they read only the page-wide settings (the language, hints on or off).

import { dragWatch } from "./narrate.js";

export function emptyState() {
  return {
    round: 0, dealer: null, order: [], acted: new Set(), revealed: new Map(),
    knocked: new Set(), shown: new Map(), paid: new Map(), stockLeft: 0, aside: 0,
    asideFaces: [], lives: {}, out: new Set(), sittingOut: new Set(), myPiece: null,
    ended: false, endedBy: null, sitOutNext: [], winners: null, toAct: null,
    swaps: [], hands: null, seen: new Set(), moved: new Set(),
  };
}

export function applyEvent(st, e, me) {
  switch (e.type) {
    case "round_start":
      st.round = e.round;
      st.dealer = e.dealer;
      st.order = e.order.slice();
      st.acted = new Set();
      st.revealed = new Map();
      st.knocked = new Set();
      st.shown = new Map();
      st.paid = new Map();
      st.stockLeft = e.stock;
      st.aside = 0;
      st.asideFaces = [];
      st.ended = false;
      st.endedBy = null;
      st.swaps = [];
      st.moved = new Set();
      st.sittingOut = new Set(st.sitOutNext);
      st.sitOutNext = [];
      st.myPiece = e.piece ?? (me !== null && e.order.includes(me) ? st.myPiece : null);
      st.toAct = null;
      break;
    case "knock":
      st.knocked.add(e.seat);
      break;
    case "stand":
      st.acted.add(e.seat);
      break;
    case "ask":
      st.acted.add(e.seat);
      break;
    case "answer":
      if (e.piece) st.seen.add(e.piece);
      if (e.seat !== null) {
        st.revealed.set(e.seat, e.piece);
      } else {
        st.asideFaces.push(e.piece);
        st.aside += 1;
        st.stockLeft = Math.max(0, st.stockLeft - 1);
      }
      break;
    case "swap": {
      st.swaps.push([e.seat, e.target]);
      // A knocked seat that has swapped may no longer hold its fool (board.js says so).
      st.moved.add(e.seat);
      st.moved.add(e.target);
      // A shown matador that its holder swaps away is now the target's, for all to see.
      if (st.revealed.has(e.seat) && !st.revealed.has(e.target)) {
        st.revealed.set(e.target, st.revealed.get(e.seat));
        st.revealed.delete(e.seat);
      }
      if (e.seat_got && me === e.seat) st.myPiece = e.seat_got;
      if (e.target_got && me === e.target) st.myPiece = e.target_got;
      break;
    }
    case "draw":
      st.stockLeft = Math.max(0, st.stockLeft - 1);
      st.aside += 1;
      st.moved.add(e.seat);
      if (e.piece && me === e.seat) st.myPiece = e.piece;
      break;
    case "pay":
      st.lives[e.seat] = e.lives;
      if (e.paid) st.paid.set(e.seat, (st.paid.get(e.seat) || 0) + 1);
      break;
    case "gain":
      st.lives[e.seat] = e.lives;
      break;
    case "undo":
      if (e.piece && me !== null) st.myPiece = e.piece;
      st.swaps = [];
      st.moved = new Set();  // every piece is back where it was dealt
      break;
    case "showdown":
      e.seats.forEach((s, i) => { st.shown.set(s, e.pieces[i]); st.seen.add(e.pieces[i]); });
      break;
    case "round_end":
      st.ended = true;
      st.endedBy = e.ended_by;
      st.lives = { ...e.lives };
      st.sitOutNext = e.sit_out.slice();
      st.toAct = null;
      break;
    case "eliminated":
      for (const s of e.seats) st.out.add(s);
      break;
    case "match_end":
      st.winners = e.winners.slice();
      break;
    default:
      break;
  }
  return st;
}

// -- the table page's store -------------------------------------------------------------

export const LOG_MAX = 300;

// Hints about the reader's own turn: they go once the turn has passed.
export const TURN_HINTS = /^(first_turn|dealer|fool_mine|matador:|fool_left:)/;

export function tableState() {
  return {
    creds: {},        // this browser's tokens for the table (api.js keeps them): host, seat...
    info: null,       // the table as the server last said it (seats, phase, config, timer)
    infoAt: 0,        // when that was said (performance.now()): the timer counts from it
    links: null,      // the table's links, for its host (from the first GET)
    you: null,        // the reader's seat (null: watching)
    version: null,    // the table's version, sent with each decision
    received: null,   // the last version received: a reconnection asks from there
    view: null,       // the server's view of the match for the reader's seat
    round: emptyState(),
    log: [],          // {n, e, me, dragged}, the last LOG_MAX; ``n`` counts up
    logEpoch: 0,      // a new log (a snapshot) counts up: the log panel starts again
    logNext: 0,
    dragged: dragWatch(),
    pending: null,    // the decision sent, until the server answers
    liveFor: null,    // the version whose turn the reader's buttons came alive for...
    liveAt: 0,        // ...when (performance.now()): the turn's clock counts from it...
    liveTold: false,  // ...and whether the server was told (``shown``)
    moving: false,    // events are being animated
    pumping: false,   // messages are being played
    notes: new Map(), // seat name -> "timer" | "standin": a bot played for that person
    hint: null,       // {id, text()}: the hint shown (text() words it in the page's language)
    joinError: "",
    joinTries: 0,
    winClosed: false, // the reader closed the winner panel
  };
}

// The reader's seat name (null: watching).
export function myName(s) {
  if (s.you === null || !s.info) return null;
  const seat = s.info.seats[s.you];
  return seat ? (seat.name ?? `Seat ${s.you + 1}`) : null;
}

function logged(s, e) {
  s.log.push({ n: s.logNext++, e, me: myName(s), dragged: s.dragged(e) });
  if (s.log.length > LOG_MAX) s.log.shift();
}

// The hint whose moment has passed goes: a turn hint once the turn is over, any hint
// once the round (or the match) is over or the reader is out of it.
function expire(s) {
  if (!s.hint) return;
  const st = s.round, me = myName(s);
  const over = !s.info || s.info.phase !== "playing" || st.ended || Boolean(st.winners) ||
    !me || st.out.has(me) || !st.order.includes(me);
  const turnGone = TURN_HINTS.test(s.hint.id) && !s.moving && !s.pumping &&
    (s.pending !== null || st.toAct !== me);
  if (over || turnGone) s.hint = null;
}

// The page's state after ``a``. It changes ``s`` in place (a long match sends many
// events, and nothing but this function writes to the store) and returns it.
export function reduce(s, a) {
  switch (a.type) {
    case "table":  // the table as it is now (the first GET, a table message, an update)
      s.info = a.table;
      s.infoAt = a.at;
      if (a.version !== undefined) s.version = a.version;
      if (a.links !== undefined) s.links = a.links;
      break;
    case "creds":  // what api.js's saved() holds for the table, after each save
      s.creds = { ...a.creds };
      break;
    case "received":
      s.received = a.snapshot ? a.version : Math.max(s.received ?? 0, a.version);
      break;
    case "snapshot":  // everything again: the round is rebuilt from the view's events
      if (a.fresh) {  // a new match (or the next one): what the last one showed is gone
        s.hint = null;
        s.notes = new Map();
        s.winClosed = false;
      }
      s.info = a.table;
      s.infoAt = a.at;
      s.you = a.you;
      s.version = a.version;
      s.view = a.view;
      s.round = emptyState();
      s.log = [];
      s.logEpoch += 1;
      s.dragged = dragWatch();
      s.pending = null;
      break;
    case "event":
      applyEvent(s.round, a.event, myName(s));
      logged(s, a.event);
      break;
    case "view": {  // the server's view is the last word, once its events are played
      const v = a.view, st = s.round;
      if (!v) break;
      s.view = v;
      st.lives = { ...v.lives };
      st.myPiece = v.piece;
      st.stockLeft = v.stock_left;
      st.out = new Set(v.out);
      st.sittingOut = new Set(v.sitting_out);
      st.toAct = v.to_act;
      st.winners = v.winners;
      if (v.dealer) st.dealer = v.dealer;
      if (v.order && v.order.length) st.order = v.order.slice();
      if (v.round) st.round = v.round;
      for (const seat of v.knocked || []) st.knocked.add(seat);
      break;
    }
    case "decision": {  // an update's first event is a decision by ``seat``, or by a bot for it
      if (a.seat !== null && a.seat === myName(s) && s.hint && TURN_HINTS.test(s.hint.id)) {
        s.hint = null;  // the reader's own turn, whoever played it, has passed
      }
      if (a.by) {
        s.notes.delete(a.by.seat);  // the latest last
        s.notes.set(a.by.seat, a.by.how);
        logged(s, { type: "standin", seat: a.by.seat, how: a.by.how });
      } else if (a.seat !== null) {
        s.notes.delete(a.seat);  // the person plays again
      }
      break;
    }
    case "live":  // the reader's buttons have come alive for their turn at ``version``
      s.liveFor = a.version;
      s.liveAt = a.at;
      s.liveTold = a.told;
      break;
    case "pending":
      s.pending = a.action;
      if (a.action !== null) s.hint = null;
      break;
    case "busy":
      if (a.moving !== undefined) s.moving = a.moving;
      if (a.pumping !== undefined) s.pumping = a.pumping;
      break;
    case "hint":
      s.hint = a.hint;
      break;
    case "expire":  // a moment the page is drawn
      break;
    case "join_error":
      s.joinError = a.text;
      s.joinTries += 1;
      break;
    case "joined":
      s.joinError = "";
      s.received = null;
      break;
    case "seat_lost":
      s.you = null;
      s.received = null;
      break;
    case "win_closed":
      s.winClosed = true;
      break;
    default:
      throw new Error(`state: no action ${a.type}`);
  }
  if (a.type === "expire") expire(s);
  return s;
}

export function tableStore() {
  const s = tableState();
  return { state: s, dispatch: (a) => reduce(s, a) };
}
