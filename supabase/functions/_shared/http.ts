// JSON responses and CORS for functions (the PWA calls them from its own origin or, hosted, from another).

export const corsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
};

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'content-type': 'application/json; charset=utf-8' },
  });
}

export function preflight(): Response {
  return new Response(null, { status: 204, headers: corsHeaders });
}

/** The JSON object body, or undefined when it is missing, not JSON or not an object. */
export async function findJsonObject(req: Request): Promise<Record<string, unknown> | undefined> {
  let parsed: unknown;
  try {
    const text = await req.text();
    if (text.length === 0) return undefined;
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  return parsed as Record<string, unknown>;
}

export function findBearerToken(req: Request): string | undefined {
  const auth = req.headers.get('authorization');
  if (!auth || !/^bearer /i.test(auth)) return undefined;
  const token = auth.slice(7).trim();
  return token.length > 0 ? token : undefined;
}
