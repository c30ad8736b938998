// The reader's settings, kept in localStorage: animation speed, hints and the coach. Reduced motion
// comes from the system (prefers-reduced-motion).

export const SPEEDS = ["slow", "normal", "fast", "instant"];
const FACTOR = { slow: 1.6, normal: 1, fast: 0.45, instant: 0 };

const motionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

export function reducedMotion() {
  return Boolean(motionQuery && motionQuery.matches);
}

export function speed() {
  const s = localStorage.getItem("gnav.speed");
  return SPEEDS.includes(s) ? s : "normal";
}

export function setSpeed(s) {
  if (SPEEDS.includes(s)) localStorage.setItem("gnav.speed", s);
}

// Milliseconds an animation of nominal length ``ms`` takes now.
export function dur(ms) {
  return hurried ? 0 : Math.round(ms * FACTOR[speed()]);
}

// The page catching up (the reader's turn has come while the moves before it were still
// being shown): every wait ends at once and every animation takes no time, until
// ``hurry(false)``. The turn's clock is running; nothing the page shows may hold it up.
let hurried = false;
const waits = new Set();  // the resolvers of the sleeps under way

export function hurry(on) {
  hurried = on;
  if (!on) return;
  for (const done of [...waits]) done();
}

export function hurrying() {
  return hurried;
}

export function hintsOn() {
  return localStorage.getItem("gnav.hints") !== "off";
}

export function setHints(on) {
  localStorage.setItem("gnav.hints", on ? "on" : "off");
}

// The coach (opt-in): at your own turn, your chance of paying if you stand and if you
// swap, and what the expert would do. Off until the reader turns it on.
export function coachOn() {
  return localStorage.getItem("gnav.coach") === "on";
}

export function setCoach(on) {
  localStorage.setItem("gnav.coach", on ? "on" : "off");
  window.dispatchEvent(new CustomEvent("gnav-coach", { detail: { on } }));
}

// A pause of ``ms``, cut short by ``hurry``.
export function sleep(ms) {
  if (ms <= 0 || hurried) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); waits.delete(done); resolve(); };
    const timer = setTimeout(done, ms);
    waits.add(done);
  });
}
