// The startup checks of spec §8 (response headers, inline code), loaded by the security wrapper once the page
// runs: their code stays out of the landing's first load (issue 21). Nothing is blocked.
import { getHeaderWarnings } from '../domain/security-headers.ts';
import { isOnline } from '../data/network.ts';
import { logSecurityEvent } from '../session/security-log.ts';

function scanInlineCode(): string[] {
  const found: string[] = [];
  document.querySelectorAll('script:not([src])').forEach(() => found.push('inline script'));
  document.querySelectorAll('style').forEach((s) => {
    // Vite's dev server injects styles; the built app links its CSS.
    if (!s.dataset['viteDevId']) found.push('inline style');
  });
  document.querySelectorAll('*').forEach((el) => {
    for (const attr of el.getAttributeNames())
      if (/^on[a-z]+$/.test(attr)) found.push(`inline handler ${attr}`);
  });
  return found;
}

export async function runStartupChecks(): Promise<void> {
  try {
    // Offline there are no headers to read; the service worker's copy would only repeat the last ones.
    if (!isOnline()) throw new Error('offline');
    const res = await fetch(window.location.href, { method: 'HEAD', cache: 'no-store' });
    const warnings = getHeaderWarnings(res.headers);
    if (warnings.length > 0) {
      for (const w of warnings) console.warn(`[security] ${w}`);
      logSecurityEvent('security_header_warnings', { warnings });
    }
  } catch {
    console.warn('[security] Could not validate security headers');
  }
  const inline = scanInlineCode();
  if (inline.length > 0) {
    console.warn('[security] inline code found', inline);
    logSecurityEvent('csp_violations_detected', { found: inline.slice(0, 20) });
  }
}
