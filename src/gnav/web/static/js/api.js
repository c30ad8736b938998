// The server's HTTP API, and what this browser keeps per table (seat, token, host token,
// invite code) so that a reload, or a lost connection, finds its seat again.

export class ApiError extends Error {
  constructor(code, reason, status) {
    super(reason);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
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
