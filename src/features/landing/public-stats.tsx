// The instance's real figures (members, matches, messages) from get_public_stats(); hidden when unavailable, never invented.
import { useEffect, useState } from 'react';
import { getAppConfig } from '../../data/app-config.ts';

interface Stats {
  members: number;
  matches: number;
  messages: number;
}

function toStats(raw: unknown): Stats | undefined {
  const row = (Array.isArray(raw) ? raw[0] : raw) as Record<string, unknown> | null | undefined;
  if (!row) return undefined;
  const pick = (...keys: string[]) => {
    for (const k of keys) if (typeof row[k] === 'number' || typeof row[k] === 'string') return Number(row[k]);
    return NaN;
  };
  const s = {
    members: pick('members', 'member_count'),
    matches: pick('matches', 'match_count'),
    messages: pick('messages', 'message_count'),
  };
  return Object.values(s).every(Number.isFinite) ? s : undefined;
}

/**
 * The same request supabase-js's rpc() makes, without loading the client library on the landing's first
 * paint (the auth client follows once the page is idle).
 */
async function fetchPublicStats(): Promise<Stats | undefined> {
  const { supabaseUrl, anonKey } = await getAppConfig();
  const res = await fetch(`${supabaseUrl.replace(/\/$/, '')}/rest/v1/rpc/get_public_stats`, {
    method: 'POST',
    headers: { apikey: anonKey, authorization: `Bearer ${anonKey}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return res.ok ? toStats(await res.json()) : undefined;
}

/**
 * 12,345 as the English page writes it. Not Intl.NumberFormat: its first use loads locale data in one
 * long task (about 20 ms, 80 ms on a throttled phone), for three numbers.
 */
export function formatCount(n: number): string {
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.trunc(Math.abs(n))).replace(/\B(?=(\d{3})+$)/g, ',');
}

export function PublicStats() {
  const [stats, setStats] = useState<Stats>();
  useEffect(() => {
    let live = true;
    fetchPublicStats()
      .then((s) => {
        if (live) setStats(s);
      })
      .catch(() => {
        /* no figures to show */
      });
    return () => {
      live = false;
    };
  }, []);
  if (!stats) return null;
  return (
    <section
      aria-labelledby="stats-heading"
      className="mx-auto max-w-4xl px-4 py-8"
      data-testid="public-stats"
    >
      <h2 id="stats-heading" className="text-center text-2xl font-bold">
        On this HeartSync community
      </h2>
      <dl className="mt-6 grid grid-cols-3 gap-4 text-center">
        {(
          [
            ['Members', stats.members],
            ['Matches made', stats.matches],
            ['Messages sent', stats.messages],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="card p-4">
            <dt className="text-sm text-muted">{label}</dt>
            <dd className="text-2xl font-bold">{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
