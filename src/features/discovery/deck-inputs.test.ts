import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DeckRefreshScheduler,
  findSettledDeckInputsKey,
  getDeckInputsKey,
  type DeckInputsRow,
} from './deck-inputs.ts';

const base: DeckInputsRow = {
  gender: 'woman',
  birthday: '1994-03-10',
  location_lat: '51.5',
  location_lng: '-0.1',
  relationship_goals: 'long-term',
  interests: '["Hiking","music"]',
  show_distance: 1,
  min_age: 25,
  max_age: 40,
  genders: '["man"]',
  max_distance_band: '10-25 km',
  pref_goals: '[]',
  answer_count: 3,
  answers_updated_at: '2026-11-20T10:00:00Z',
  looking_for: '["man"]',
  has_prefs: 1,
};

describe('getDeckInputsKey', () => {
  it('changes with every field that decides who is eligible or how the deck is ranked', () => {
    const changes: Partial<DeckInputsRow>[] = [
      { gender: 'man' },
      { birthday: '1990-01-01' },
      { location_lat: '48.9' },
      { location_lng: '2.3' },
      { relationship_goals: 'marriage' },
      { interests: '["hiking","music","travel"]' },
      { show_distance: 0 },
      { min_age: 30 },
      { max_age: 35 },
      { genders: '["man","woman"]' },
      { max_distance_band: '100+ km' },
      { pref_goals: '["marriage"]' },
      { answer_count: 4 },
      { answers_updated_at: '2026-11-21T10:00:00Z' },
    ];
    const key = getDeckInputsKey(base);
    for (const change of changes)
      expect(getDeckInputsKey({ ...base, ...change }), JSON.stringify(change)).not.toBe(key);
  });

  it('ignores order, repeats, case and number spelling, as the server compares them', () => {
    expect(
      getDeckInputsKey({
        ...base,
        interests: '[" music","hiking","HIKING"]',
        genders: '["man","man"]',
        location_lat: 51.5,
        location_lng: '-0.10',
      }),
    ).toBe(getDeckInputsKey(base));
  });

  it('an interest changed only outside ASCII case is a change, as the server ranks it', () => {
    // public.normalize_interest lower-cases A-Z alone: 'Éclair' and 'éclair' are two interests there.
    const withEclair = { ...base, interests: '["Éclair"]' };
    expect(getDeckInputsKey({ ...base, interests: '["éclair"]' })).not.toBe(getDeckInputsKey(withEclair));
    expect(getDeckInputsKey({ ...base, interests: '[" Éclair "]' })).toBe(getDeckInputsKey(withEclair));
  });

  it('tells "no preferences yet" from preferences being saved', () => {
    const none: DeckInputsRow = {
      ...base,
      min_age: null,
      max_age: null,
      genders: null,
      max_distance_band: null,
      pref_goals: null,
      has_prefs: 0,
    };
    expect(getDeckInputsKey(none)).not.toBe(getDeckInputsKey(base));
    // Without preferences, "Looking for" decides the deck's genders (0128): a change of it is a new deck;
    // with preferences saved, it is not.
    expect(getDeckInputsKey({ ...none, looking_for: '["woman"]' })).not.toBe(getDeckInputsKey(none));
    expect(getDeckInputsKey({ ...base, looking_for: '["woman"]' })).toBe(getDeckInputsKey(base));
    expect(getDeckInputsKey({ ...none, interests: 'not json' })).toBe(
      getDeckInputsKey({ ...none, interests: null }),
    );
  });
});

describe('findSettledDeckInputsKey', () => {
  it('waits for the replica and for her own queued writes to reach the server', () => {
    expect(findSettledDeckInputsKey(undefined, 0)).toBeUndefined();
    expect(findSettledDeckInputsKey(base, 1)).toBeUndefined();
    expect(findSettledDeckInputsKey(base, 0)).toBe(getDeckInputsKey(base));
  });
});

describe('DeckRefreshScheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes the first key as the baseline and refreshes once per settled change', () => {
    const refresh = vi.fn();
    const s = new DeckRefreshScheduler(refresh, 800);
    s.catchUp(undefined);
    s.observe(undefined);
    s.observe('a');
    s.observe('a');
    vi.advanceTimersByTime(5000);
    expect(refresh).not.toHaveBeenCalled();

    s.observe('b');
    vi.advanceTimersByTime(799);
    expect(refresh).not.toHaveBeenCalled();
    // A repeat of the waiting key does not restart the wait.
    s.observe('b');
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    s.observe('b');
    vi.advanceTimersByTime(5000);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('folds a burst of changes into one refresh and drops a change undone in time', () => {
    const refresh = vi.fn();
    const s = new DeckRefreshScheduler(refresh, 800);
    s.catchUp(undefined);
    s.observe('a');
    for (const k of ['b', 'c', 'd']) {
      s.observe(k);
      vi.advanceTimersByTime(500);
    }
    expect(refresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(300);
    expect(refresh).toHaveBeenCalledTimes(1);

    s.observe('e');
    vi.advanceTimersByTime(400);
    s.observe('d');
    vi.advanceTimersByTime(5000);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('drops a waiting refresh when the key becomes unsettled, and refreshes once it settles again', () => {
    const refresh = vi.fn();
    const s = new DeckRefreshScheduler(refresh, 800);
    s.catchUp(undefined);
    s.observe('a');
    // The replica shows her new preferences one render before it shows them queued for upload.
    s.observe('b');
    vi.advanceTimersByTime(100);
    s.observe(undefined);
    vi.advanceTimersByTime(5000);
    expect(refresh).not.toHaveBeenCalled();
    // Uploaded: the same key, now settled.
    s.observe('b');
    vi.advanceTimersByTime(800);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('only follows the keys until the replica caught up, then compares with the key read at that moment', () => {
    const refresh = vi.fn();
    const s = new DeckRefreshScheduler(refresh, 800);
    // The device's kept rows, then the server's as they sync in: the deck fetched on opening already used them.
    s.observe('kept');
    s.observe('server');
    vi.advanceTimersByTime(5000);
    expect(refresh).not.toHaveBeenCalled();
    s.catchUp('server');
    // The watched query shows the caught-up rows a moment after the status says so.
    s.observe('server');
    vi.advanceTimersByTime(5000);
    expect(refresh).not.toHaveBeenCalled();
    // A change after the catch-up (saved on another device) asks for a fresh deck.
    s.observe('changed');
    vi.advanceTimersByTime(800);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('takes a later catch-up (after a reconnection) as one more key, not a new baseline', () => {
    const refresh = vi.fn();
    const s = new DeckRefreshScheduler(refresh, 800);
    s.catchUp('a');
    s.observe('b');
    vi.advanceTimersByTime(100);
    s.catchUp('b');
    vi.advanceTimersByTime(700);
    expect(refresh).toHaveBeenCalledTimes(1);
    s.catchUp('b');
    vi.advanceTimersByTime(5000);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('refreshes nothing after cancel', () => {
    const refresh = vi.fn();
    const s = new DeckRefreshScheduler(refresh, 800);
    s.catchUp(undefined);
    s.observe('a');
    s.observe('b');
    s.cancel();
    vi.advanceTimersByTime(5000);
    expect(refresh).not.toHaveBeenCalled();
  });
});
