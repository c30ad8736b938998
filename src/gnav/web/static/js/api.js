// The server's HTTP API, and what this browser keeps per table (seat, token, host token,
// invite code) so that a reload, or a lost connection, finds its seat again.

export class ApiError extends Error {
  constructor(code, reason, status) {
    super(reason);
    this.code = code;
    this.status = status;
  }
}

// The requests that change a table (create, join, seat a bot, free a seat, start) carry
// a key of their own and are sent again with it when the answer says another try may do
// (the server went away mid-request, or is busy or stopping: behind a proxy, the next
// try reaches another process). A retry of one the server stored answers as the first
// did (gnav.table.retries), so a table is never made twice, nor a start refused as
// "started" because the first had in fact been stored.
const AGAIN = new Set(["offline", "busy", "closing", "store_failed", "store_full"]);
const CHANGES = /^\/api\/tables(\/[^/]+\/(join|bots|start|seats\/\d+))?$/;
export const TRIES = 6;  // after 0.5, 1, 2, 4 and 8 s: about 15 s in all

export function requestKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));  // 128 bits
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

async function once(method, path, { body, token, key }) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (key) headers["Idempotency-Key"] = key;
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined :
      typeof body === "string" ? body : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError("offline", String(e.message || e), 0);
  }
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || "http", err.reason || `HTTP ${r.status}`, r.status);
  }
  return data;
}

export async function api(method, path, { body, token, pause = 500 } = {}) {
  const changes = method !== "GET" && CHANGES.test(path);
  const key = changes ? requestKey() : null;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await once(method, path, { body, token, key });
    } catch (e) {
      // A proxy with no process behind it answers 502 to 504 with no JSON of ours.
      const again = AGAIN.has(e.code) || (e.code === "http" && e.status >= 502 && e.status <= 504);
      if (!changes || !again || attempt >= TRIES) throw e;
    }
    await new Promise((done) => setTimeout(done, pause * 2 ** (attempt - 1)));
  }
}

const KEY = (id) => `gnav.table.${id}`;

export function saved(id) {
  try {
    return JSON.parse(localStorage.getItem(KEY(id)) || "{}") || {};
  } catch {
    return {};
  }
}

export function save(id, changes) {
  const now = { ...saved(id), ...changes };
  for (const [k, v] of Object.entries(now)) if (v === null || v === undefined) delete now[k];
  localStorage.setItem(KEY(id), JSON.stringify(now));
  return now;
}

// A table id and invite code from what someone pasted: an invite link, or "id:code".
export function readInvite(text) {
  const s = String(text || "").trim();
  if (!s) return null;
  const link = s.match(/\/t\/([A-Za-z0-9_-]{6,32})(?:[^#]*)?(?:#(?:invite=)?([0-9a-f]{24}))?/);
  if (link) return { id: link[1], invite: link[2] || null };
  const code = s.match(/^([A-Za-z0-9_-]{6,32})(?:[\s:#]+(?:invite=)?([0-9a-f]{24}))?$/);
  if (code) return { id: code[1], invite: code[2] || null };
  return null;
}
