// What the page knows of the round, rebuilt from the events it was sent: who has acted,
// which matadors are shown, who knocked, the showdown, lives, the stock. Events carry
// seat names; ``me`` is the reader's name (null: a spectator).

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

// The server's view is the last word: set what it says, after the events are played.
export function reconcile(st, view) {
  if (!view) return st;
  st.lives = { ...view.lives };
  st.myPiece = view.piece;
  st.stockLeft = view.stock_left;
  st.out = new Set(view.out);
  st.sittingOut = new Set(view.sitting_out);
  st.toAct = view.to_act;
  st.winners = view.winners;
  if (view.dealer) st.dealer = view.dealer;
  if (view.order && view.order.length) st.order = view.order.slice();
  if (view.round) st.round = view.round;
  for (const s of view.knocked || []) st.knocked.add(s);
  return st;
}
