// The standings of a finished match, from its record (docs/spec/records.md): every seat's
// place, lives left and rounds survived. The winners come first; then whoever lasted
// longer, then whoever kept more lives (a match stopped by max_rounds ends with several
// seats in). Seats level on all of that share a place.

// ``record``: the JSON the table serves once the match is over.
export function standings(record) {
  const seats = record.seats || [];
  const rounds = record.rounds || [];
  const winners = new Set((record.result && record.result.winners) || []);
  const lives = new Map();
  const outAfter = new Map();  // seat -> the round (1, 2, ...) whose end took its last life
  rounds.forEach((r, i) => {
    // A round's result lists every seat still in when it began.
    for (const [seat, n] of Object.entries((r.result && r.result.lives) || {})) {
      lives.set(seat, n);
      if (n <= 0 && !outAfter.has(seat)) outAfter.set(seat, i + 1);
    }
  });
  const rows = seats.map((name) => ({
    name,
    winner: winners.has(name),
    lives: Math.max(0, lives.get(name) ?? 0),
    // Rounds that ended with the seat still in the match. Winners were never put out,
    // though a shared win (all left reach 0 together) leaves them at 0 lives.
    survived: !winners.has(name) && outAfter.has(name) ? outAfter.get(name) - 1 : rounds.length,
  }));
  const key = (r) => [r.winner ? 1 : 0, r.survived, r.lives];
  const ahead = (a, b) => {  // a ranks strictly above b
    const x = key(a), y = key(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] > y[i];
    return false;
  };
  for (const r of rows) r.place = 1 + rows.filter((o) => ahead(o, r)).length;
  // Stable: seats sharing a place stay in seat order.
  return rows.map((r, i) => ({ r, i })).sort((a, b) => a.r.place - b.r.place || a.i - b.i)
    .map(({ r }) => r);
}
