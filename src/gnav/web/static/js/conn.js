// The table's WebSocket: hello (with the last version seen, so only what was missed is
// sent again), then messages; it reconnects by itself, with a growing pause, and says
// what state it is in.

const CLOSE_REPLACED = 4001;
const CLOSE_REMOVED = 4003;
const CLOSE_NO_TABLE = 4004;
const STOP_CODES = new Set(["bad_token", "bad_seat", "no_table", "bad_origin"]);

export class Conn {
  // hello(): {seat, token, since}; onMessage(msg, {catchUp}); onState(state, detail)
  constructor(tableId, { hello, onMessage, onState }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(tableId)}`;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.beat = null;
    this.stopped = false;
    this.catchUp = false;
    this.lastError = null;
    this.waitingPong = false;
    this._online = () => this.retryNow();
    window.addEventListener("online", this._online);
  }

  open() {
    this.stopped = false;
    clearTimeout(this.timer);
    if (this.ws) {
      this.ws.onclose = null;
      try { this.ws.close(); } catch { /* already closed */ }
    }
    this.onState("connecting", {});
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (e) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.lastError = null;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", ...this.hello() }));
      this.catchUp = true;
      ws.send(JSON.stringify({ type: "ping" }));
      this.waitingPong = true;
      this.startBeat();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "pong") {
        this.waitingPong = false;
        if (this.catchUp) {
          this.catchUp = false;
          this.attempt = 0;
          this.onState("open", {});
        }
        return;
      }
      if (msg.type === "error") {
        this.lastError = msg;
        if (this.catchUp && STOP_CODES.has(msg.code)) {
          this.stopped = true;  // the hello was refused: the close that follows is final
          this.onState("stopped", { code: msg.code, reason: msg.reason });
          return;
        }
      }
      this.onMessage(msg, { catchUp: this.catchUp });
    };
    ws.onclose = (ev) => {
      this.stopBeat();
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (ev.code === CLOSE_REPLACED) return this.stop("replaced", ev.reason);
      if (ev.code === CLOSE_REMOVED) return this.stop("removed", ev.reason);
      if (ev.code === CLOSE_NO_TABLE) return this.stop("no_table", ev.reason);
      this.scheduleRetry();
    };
  }

  stop(code, reason) {
    this.stopped = true;
    this.onState("stopped", { code, reason });
  }

  scheduleRetry() {
    this.attempt += 1;
    const base = Math.min(10, 0.5 * 2 ** (this.attempt - 1));
    const secs = Math.round((base + Math.random() * base * 0.3) * 10) / 10;
    this.onState("retry", { attempt: this.attempt, seconds: secs, until: Date.now() + secs * 1000 });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), secs * 1000);
  }

  retryNow() {
    if (this.stopped || (this.ws && this.ws.readyState <= 1)) return;
    this.open();
  }

  startBeat() {
    this.stopBeat();
    this.beat = setInterval(() => {
      if (!this.ws || this.ws.readyState !== 1) return;
      if (this.waitingPong) {  // no answer to the last ping: the line is dead
        try { this.ws.close(); } catch { /* gone */ }
        return;
      }
      this.waitingPong = true;
      this.ws.send(JSON.stringify({ type: "ping" }));
    }, 20000);
  }

  stopBeat() {
    clearInterval(this.beat);
    this.beat = null;
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== 1) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.stopBeat();
    window.removeEventListener("online", this._online);
    if (this.ws) {
      this.ws.onclose = null;
      try { this.ws.close(); } catch { /* gone */ }
      this.ws = null;
    }
  }
}
