// What in the member's own rows decides her deck, as one comparable key, and when a change of it asks for a
// fresh deck (pure, unit-tested; the page feeds it from the replica).
import { normalizeInterest } from '../../domain/compatibility.ts';

/** A settled change waits this long for more (a form saving profile and preferences is one change). */
export const DECK_REFRESH_DEBOUNCE_MS = 800;

/**
 * The member's inputs to get_discovery_candidates as one replica row (values as the replica keeps them:
 * arrays as JSON text, booleans 0/1). Null columns when she has no profile or preferences row yet.
 */
export interface DeckInputsRow {
  gender: string | null;
  birthday: string | null;
  location_lat: string | number | null;
  location_lng: string | number | null;
  relationship_goals: string | null;
  interests: string | null;
  show_distance: number | null;
  min_age: number | null;
  max_age: number | null;
  genders: string | null;
  max_distance_band: string | null;
  pref_goals: string | null;
  answer_count: number | null;
  answers_updated_at: string | null;
  /** The profile's "Looking for": the deck's genders while no preferences were saved (0128). */
  looking_for: string | null;
  /** 1 when the member saved match preferences. */
  has_prefs: number | null;
}

/** The replica query behind DeckInputsRow: always exactly one row (parameter: the member's id). */
export const DECK_INPUTS_SQL = `
  select p.gender, p.birthday, p.location_lat, p.location_lng, p.relationship_goals, p.interests, p.show_distance,
    mp.min_age, mp.max_age, mp.genders, mp.max_distance_band, mp.relationship_goals as pref_goals,
    p.looking_for, (mp.id is not null) as has_prefs,
    (select count(*) from profile_answers a where a.user_id = me.id) as answer_count,
    (select max(a.updated_at) from profile_answers a where a.user_id = me.id) as answers_updated_at
  from (select ? as id) me
  left join profiles p on p.id = me.id
  left join match_preferences mp on mp.id = me.id`;

function parseTextList(value: string | null): string[] {
  if (!value) return [];
  try {
    const v = JSON.parse(value) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** A set as the server compares it: order and repeats do not matter. */
function toSet(value: string | null, normalize: (s: string) => string = (s) => s): string[] {
  return [
    ...new Set(
      parseTextList(value)
        .map(normalize)
        .filter((s) => s !== ''),
    ),
  ].sort();
}

function toNumber(value: string | number | null): number | null {
  if (value === null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * The fields that change who is eligible or how the deck is ranked, normalised so a save that changes
 * nothing of them (a new bio, a photo, last_seen, the same interests in another order) gives the same key.
 */
export function getDeckInputsKey(row: DeckInputsRow): string {
  return JSON.stringify([
    row.gender,
    row.birthday,
    toNumber(row.location_lat),
    toNumber(row.location_lng),
    row.relationship_goals,
    // as public.normalize_interests: ASCII letters lower-cased, spaces trimmed, distinct
    toSet(row.interests, normalizeInterest),
    row.show_distance === null ? null : row.show_distance !== 0,
    row.min_age,
    row.max_age,
    toSet(row.genders),
    row.max_distance_band,
    toSet(row.pref_goals),
    row.answer_count ?? 0,
    row.answers_updated_at,
    // Who the deck offers while no preferences are saved (0128).
    row.has_prefs ? [] : toSet(row.looking_for),
  ]);
}

/**
 * The key once it can be acted on: undefined while the replica is still reading, and while the member's own
 * writes to these rows wait in the upload queue (the server would still rank with the old values).
 */
export function findSettledDeckInputsKey(
  row: DeckInputsRow | undefined,
  pendingUploads: number,
): string | undefined {
  if (!row || pendingUploads > 0) return undefined;
  return getDeckInputsKey(row);
}

/**
 * Turns the stream of keys into refreshes. Until the replica has caught up with the server (catchUp), a key
 * only moves the baseline: the replica is still bringing in what the server had when the page fetched its deck
 * on opening (her profile saved on another device before), which that fetch already ranked with. From then
 * on, a different key is refreshed once it has held, settled, for `delayMs`; repeats and a change undone in
 * time do nothing.
 */
export class DeckRefreshScheduler {
  private baseline: string | undefined;
  private pending: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private caughtUp = false;

  constructor(
    private readonly refresh: () => void,
    private readonly delayMs = DECK_REFRESH_DEBOUNCE_MS,
  ) {}

  /**
   * Feeds the latest key; undefined while it is not settled (replica still reading, her writes queued). An
   * unsettled moment drops a waiting refresh: the key may have changed only because her write is still on
   * the device, and it is fed again once uploaded.
   */
  observe(key: string | undefined): void {
    if (key === undefined) {
      this.cancel();
      return;
    }
    if (!this.caughtUp || this.baseline === undefined) {
      this.baseline = key;
      return;
    }
    if (key === this.pending) return;
    this.cancel();
    if (key === this.baseline) return;
    this.pending = key;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pending = undefined;
      this.baseline = key;
      this.refresh();
    }, this.delayMs);
  }

  /**
   * The replica has caught up with the server; `key` is read from it after that (undefined when it could not
   * be read). The first time, it is the baseline later changes are compared with; after a reconnection it is
   * one more key observed (a change synced meanwhile is still a change).
   */
  catchUp(key: string | undefined): void {
    if (this.caughtUp) {
      this.observe(key);
      return;
    }
    this.caughtUp = true;
    this.cancel();
    if (key !== undefined) this.baseline = key;
  }

  /** Drops a waiting refresh (e.g. the page closes). */
  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }
}
