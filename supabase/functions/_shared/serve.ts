// Starts the handler under Deno (Supabase Edge Functions); in Node the host imports the module instead.

type Handler = (req: Request) => Response | Promise<Response>;

export function serveWhenDeno(handler: Handler): void {
  const deno = (globalThis as { Deno?: { serve?: (h: Handler) => unknown } }).Deno;
  if (typeof deno?.serve === 'function') deno.serve(handler);
}
