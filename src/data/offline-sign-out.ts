// Signing out on this device must work offline. supabase-js asks the server to end the session first and,
// when the request cannot be made at all (no network), keeps the session and returns an error: the member
// tapping Sign Out on a shared phone, or the 120-minute idle rule, would leave the session in place. For a
// local sign-out only, a request that never reached the server is answered as if the token were already
// void (401), which supabase-js treats as signed out: the session leaves this device. The server's session
// then ends on its own (refresh tokens expire); "Log out of all devices" still needs the network and says so.

const LOCAL_LOGOUT = /\/auth\/v1\/logout$/;

function isLocalLogout(input: RequestInfo | URL, init?: RequestInit): boolean {
  const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  try {
    const url = new URL(raw, 'http://localhost');
    return method === 'POST' && LOCAL_LOGOUT.test(url.pathname) && url.searchParams.get('scope') === 'local';
  } catch {
    return false;
  }
}

/** A fetch for supabase-js whose local sign-out succeeds on this device when the server cannot be reached. */
export function withOfflineLocalSignOut(fetchImpl: typeof fetch): typeof fetch {
  return async (input, init) => {
    try {
      return await fetchImpl(input, init);
    } catch (e) {
      if (!isLocalLogout(input, init)) throw e;
      return new Response(
        JSON.stringify({ code: 401, error_code: 'offline_sign_out', msg: 'Signed out on this device only' }),
        { status: 401, headers: { 'content-type': 'application/json' } },
      );
    }
  };
}
