// Where mailed links may send a browser: only this instance's own origin (open-redirect protection).

/** The redirect as an absolute URL on PUBLIC_URL's origin, or the fallback when it points anywhere else. */
export function getSafeRedirect(raw: unknown, publicUrl: string, fallbackPath: string): string {
  const origin = new URL(publicUrl).origin;
  const fallback = new URL(fallbackPath, `${publicUrl}/`).toString();
  if (typeof raw !== 'string' || raw === '' || raw.length > 2048) return fallback;
  try {
    const url = new URL(raw, `${publicUrl}/`);
    if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fallback;
    url.hash = '';
    return url.toString();
  } catch {
    return fallback;
  }
}

/** Appends values as the URL fragment, where the browser keeps them out of server logs and Referer. */
export function withFragment(url: string, values: Record<string, string | number>): string {
  const fragment = new URLSearchParams(
    Object.entries(values).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return `${url.split('#')[0]}#${fragment}`;
}
