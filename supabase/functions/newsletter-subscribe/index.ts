// Records a newsletter address with its consent time. Body {email}; answers {success, error} and the same
// success whether or not the address was already subscribed, so it reveals nothing about others.
import { serveWhenDeno } from '../_shared/serve.ts';
import { findJsonObject, json, preflight } from '../_shared/http.ts';
import { createServiceClient } from '../_shared/supabase.ts';

const INVALID = 'Please enter a valid email address.';
// The same shape subscribe_newsletter() checks; checked here too so bad input never reaches the database.
// Control characters (NUL among them) are never part of an address.
// eslint-disable-next-line no-control-regex
const EMAIL = /^[^@\s<>()",;:\u0000-\u001f]+@[^@\s<>()",;:\u0000-\u001f]+\.[^@\s<>()",;:.\u0000-\u001f]+$/;

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return json({ success: false, error: 'Method not allowed' }, 405);
  const email = (await findJsonObject(req))?.['email'];
  if (typeof email !== 'string' || email.trim().length > 254 || !EMAIL.test(email.trim()))
    return json({ success: false, error: INVALID }, 400);
  const { error } = await createServiceClient().rpc('subscribe_newsletter', { email: email.trim() });
  if (error?.code === '22023') return json({ success: false, error: INVALID }, 400);
  if (error) throw new Error(`subscribing failed: ${error.message}`);
  return json({ success: true, error: null });
}

export default handler;
serveWhenDeno(handler);
