// Whether the address carries an auth redirect's answer (sign-up confirmation, password recovery, an error).
// No imports: the landing's entry script asks this before the auth client loads (decision 0068).

/** Query or hash parameters an auth redirect brings back (supabase-js reads them at start). */
const AUTH_PARAMS = ['access_token', 'refresh_token', 'code', 'token_hash', 'error', 'error_description'];

/** True when supabase-js will read a session or an error from the address, which can replace a stored one. */
export function hasAuthRedirectParams(location: Pick<Location, 'search' | 'hash'>): boolean {
  const params = [
    ...new URLSearchParams(location.search).keys(),
    ...new URLSearchParams(location.hash.replace(/^#/, '')).keys(),
  ];
  return params.some((p) => AUTH_PARAMS.includes(p));
}
