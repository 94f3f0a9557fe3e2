// A signed-in member's requests never go out as a visitor's. supabase-js sends the anon key as the bearer
// token when it has no session to give, and it has none while an expired access token cannot be renewed (no
// server yet, or its pause of a minute after a failed renewal). The server would then answer as to a
// visitor: a read comes back empty, and a queued write is refused by the row rules and dropped, which loses
// what the member typed (decision 0112). Such a request fails here, before leaving, as a failed network
// request does, so it is tried again once the session is renewed.

/** The error a member's request fails with while the session cannot give it a token. */
export class SessionNotReadyError extends TypeError {
  constructor() {
    super('Failed to fetch: the session is being renewed');
    this.name = 'SessionNotReadyError';
  }
}

function urlOf(input: RequestInfo | URL): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** The bearer token a request carries (from `init`'s headers, else the Request's own). */
function bearerOf(input: RequestInfo | URL, init: RequestInit | undefined): string | undefined {
  const headers = new Headers(
    init?.headers ?? (typeof input === 'object' && 'headers' in input ? input.headers : {}),
  );
  const match = /^Bearer (.+)$/i.exec(headers.get('authorization') ?? '');
  return match?.[1];
}

/** The auth server's own endpoints: signing in and renewing a session go out with the anon key by design. */
function isAuthRequest(url: string): boolean {
  try {
    return new URL(url, 'http://localhost').pathname.startsWith('/auth/v1/');
  } catch {
    return false;
  }
}

/**
 * A fetch for supabase-js that refuses, without a request, one carrying the anon key (`anonKey`) as its token
 * while `memberSignedIn()` says this device holds a member's session. A visitor's requests (no stored
 * session) and the auth endpoints go out as they are.
 */
export function withMemberTokenOnly(
  fetchImpl: typeof fetch,
  anonKey: string,
  memberSignedIn: () => boolean,
): typeof fetch {
  return async (input, init) => {
    if (bearerOf(input, init) === anonKey && !isAuthRequest(urlOf(input)) && memberSignedIn())
      throw new SessionNotReadyError();
    return fetchImpl(input, init);
  };
}
