// A session's expiry on this device's own clock. The auth server sends `expires_at` on its clock; supabase-js
// compares it with Date.now(), so on a phone whose clock runs an hour or more ahead every token looks expired
// the moment it arrives: each getSession refreshes it again and the sync connection never starts (a refresh
// storm against the server). Rewriting `expires_at` as "when the request left + expires_in" keeps every
// comparison on one clock; the server still judges the token by its own.

/** Auth endpoints whose JSON answer can be a session. */
const SESSION_PATH = /\/auth\/v1\/(token|verify|signup)$/;

interface SessionLike {
  access_token: string;
  expires_in: number;
  expires_at?: number;
}

function isSessionLike(body: unknown): body is SessionLike {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b['access_token'] === 'string' && typeof b['expires_in'] === 'number' && b['expires_in'] > 0;
}

/**
 * The session with `expires_at` on this device's clock: `sentAtMs` (when the request left, so the token never
 * looks valid for longer than it is) plus its lifetime. Anything else comes back as it was.
 */
export function onDeviceClock<T>(body: T, sentAtMs: number): T {
  if (!isSessionLike(body)) return body;
  return { ...body, expires_at: Math.floor(sentAtMs / 1000) + body.expires_in };
}

function pathOf(input: RequestInfo | URL): string {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    return new URL(url, 'http://localhost').pathname;
  } catch {
    return '';
  }
}

/** A fetch for supabase-js whose session answers carry `expires_at` on this device's clock. */
export function withDeviceClockSessions(fetchImpl: typeof fetch): typeof fetch {
  return async (input, init) => {
    const sentAtMs = Date.now();
    const response = await fetchImpl(input, init);
    if (!response.ok || !SESSION_PATH.test(pathOf(input))) return response;
    if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response;
    let body: unknown;
    try {
      body = await response.clone().json();
    } catch {
      return response;
    }
    if (!isSessionLike(body)) return response;
    const headers = new Headers(response.headers);
    // The body below is new and not compressed.
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(JSON.stringify(onDeviceClock(body, sentAtMs)), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
