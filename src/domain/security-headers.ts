// The startup header check of spec §8: which security headers are missing or weak in a response.

export const REQUIRED_SECURITY_HEADERS = [
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'strict-transport-security',
] as const;

/** Warnings for a response's headers; empty when all is well. */
export function getHeaderWarnings(headers: { get(name: string): string | null }): string[] {
  const warnings: string[] = [];
  for (const name of REQUIRED_SECURITY_HEADERS)
    if (!headers.get(name)) warnings.push(`Missing security header: ${name}`);
  const csp = headers.get('content-security-policy');
  if (csp) {
    if (!/(^|;)\s*default-src\s+'self'/.test(csp)) warnings.push("CSP lacks default-src 'self'");
    if (/'unsafe-inline'/.test(csp)) warnings.push('CSP contains unsafe-inline');
    if (/'unsafe-eval'/.test(csp)) warnings.push('CSP contains unsafe-eval');
  }
  return warnings;
}
