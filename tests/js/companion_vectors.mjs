// Plays the engine's test vectors (tests/test_companion_book.py) through the companion's
// bookkeeping, tap by tap, and prints what it made of each match: its record and the
// lives after every round. Run: node --experimental-default-type=module THIS BOOK VECTORS
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [book, vectors] = process.argv.slice(2);
const B = await import(pathToFileURL(book).href);
const out = [];
for (const v of JSON.parse(readFileSync(vectors, "utf8"))) {
  const rules = B.rulesOf(v.preset, v.options);
  let m = B.newMatch(rules, v.names, v.dealer);
  const lives = [];
  const turns = [];
  try {
    for (const r of v.rounds) {
      if (m.dealer !== r.dealer) throw new Error(`dealer ${m.dealer}, engine ${r.dealer}`);
      m = B.deal(m, r.knocked);
      for (const tap of r.taps) {
        const w = B.waiting(m);
        turns.push(w.kind === "turn" ? w.seat : w.kind === "answer" ? w.at : -1);
        m = tap[0] === "act" ? B.act(m, tap[1]) : B.answer(m, tap[1]);
      }
      if (B.waiting(m).kind !== "showdown") throw new Error("no showdown after the taps");
      m = B.showdown(m, r.hands, r.aside);
      lives.push(m.lives);
    }
    out.push({ record: B.toRecord(m), lives, turns, winners: m.winners });
  } catch (e) {
    out.push({ error: `${e.message} ${JSON.stringify(e.problems || "")}` });
  }
}
process.stdout.write(JSON.stringify(out));
