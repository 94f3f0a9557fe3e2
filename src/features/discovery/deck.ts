// The discovery deck: fetched from get_discovery_candidates and kept in the local discovery_deck table, so swiping works offline.
import type { PowerSyncDatabase } from '../../data/replica.tsx';
import { getSupabase } from '../../data/supabase-client.ts';
import { DISTANCE_BANDS } from '../../domain/distance-band.ts';

export const DECK_SIZE = 30;
export const GENDERS = ['woman', 'man', 'non-binary', 'other'] as const;
export const GOALS = ['long-term', 'short-term', 'marriage', 'friendship', 'casual', 'not-sure'] as const;

export interface DeckFilters {
  minAge?: number;
  maxAge?: number;
  maxDistanceBand?: string;
  genders?: string[];
  goals?: string[];
}

/** Mirrors the RPC's checks so a bad filter is explained before any request; undefined when fine. */
export function findFilterError(f: DeckFilters): string | undefined {
  for (const [label, v] of [
    ['Minimum age', f.minAge],
    ['Maximum age', f.maxAge],
  ] as const)
    if (v !== undefined && (!Number.isInteger(v) || v < 18 || v > 120))
      return `${label} must be a whole number from 18 to 120.`;
  if (f.minAge !== undefined && f.maxAge !== undefined && f.minAge > f.maxAge)
    return 'Minimum age must not be above maximum age.';
  if (f.maxDistanceBand && !(DISTANCE_BANDS as readonly string[]).includes(f.maxDistanceBand))
    return 'Choose a distance from the list.';
  return undefined;
}

export interface DeckRow {
  id: string;
  position: number;
  name: string | null;
  age: number | null;
  gender: string | null;
  city: string | null;
  country: string | null;
  bio: string | null;
  interests: string | null;
  photos: string | null;
  career: string | null;
  education_level: string | null;
  languages: string | null;
  relationship_goals: string | null;
  is_verified: number | null;
  distance_band: string | null;
  compatibility_score: number | null;
  explanation: string | null;
  fetched_at: string;
}

/**
 * Members this device blocked or reported since the page loaded. A deck fetched just before (still on its
 * way) was ranked before the server hid the pair; its answer must not bring them back.
 */
const hiddenOnThisDevice = new Set<string>();

/** Leaves `memberId` out of every deck this device writes from now on (the server hides the pair too). */
export function hideFromDeck(memberId: string): void {
  hiddenOnThisDevice.add(memberId);
}

/** The candidates without the members hidden on this device. */
export function withoutHidden<T extends Record<string, unknown>>(
  rows: T[],
  hidden: ReadonlySet<string>,
): T[] {
  return hidden.size === 0 ? rows : rows.filter((r) => !hidden.has(String(r['id'])));
}

/**
 * Replaces the local deck with a fresh one from the server (needs the network) and returns the time it
 * stamped on every row (`fetched_at`), by which the deck's readers tell it from the one before. `isStale` is
 * asked once the answer is in: when a newer request was made meanwhile, this one writes nothing (undefined).
 * The replica may still be opening (a promise): the server is asked meanwhile, and the deck written once open.
 */
export async function refreshDeck(
  db: PowerSyncDatabase | Promise<PowerSyncDatabase>,
  filters: DeckFilters,
  isStale: () => boolean = () => false,
): Promise<string | undefined> {
  const problem = findFilterError(filters);
  if (problem) throw new Error(problem);
  const sb = await getSupabase();
  const { data, error } = await sb.rpc('get_discovery_candidates', {
    limit_count: DECK_SIZE,
    filter_min_age: filters.minAge ?? null,
    filter_max_age: filters.maxAge ?? null,
    filter_max_distance_band: filters.maxDistanceBand || null,
    filter_genders: filters.genders?.length ? filters.genders : null,
    filter_relationship_goals: filters.goals?.length ? filters.goals : null,
  });
  if (error) throw error;
  if (isStale()) return undefined;
  const rows = withoutHidden((data ?? []) as Record<string, unknown>[], hiddenOnThisDevice);
  const now = new Date().toISOString();
  const replica = await db;
  if (isStale()) return undefined;
  await replica.writeTransaction(async (tx) => {
    await tx.execute('delete from discovery_deck');
    for (const [i, r] of rows.entries()) {
      await tx.execute(
        `insert into discovery_deck (id, position, name, age, gender, city, country, bio, interests, photos, career,
           education_level, languages, height, height_unit, relationship_goals, looking_for, is_verified, last_seen,
           distance_band, compatibility_score, explanation, fetched_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          r['id'],
          i,
          r['name'],
          r['age'],
          r['gender'],
          r['city'],
          r['country'],
          r['bio'],
          JSON.stringify(r['interests'] ?? []),
          JSON.stringify(r['photos'] ?? []),
          r['career'],
          r['education_level'],
          JSON.stringify(r['languages'] ?? []),
          r['height'] == null ? null : String(r['height']),
          r['height_unit'],
          r['relationship_goals'],
          JSON.stringify(r['looking_for'] ?? []),
          r['is_verified'] ? 1 : 0,
          r['last_seen'],
          r['distance_band'],
          r['compatibility_score'],
          JSON.stringify(r['explanation'] ?? {}),
          now,
        ],
      );
    }
  });
  return now;
}
