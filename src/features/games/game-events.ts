// The game event history of the spec (§3: GAME_INVITATION_SENT ... GAME_STATE_CHANGED, at most 100 events),
// for this device's session: what the member did and what reached them through sync.
import { useSyncExternalStore } from 'react';
import { addGameEvent, type GameEvent } from '../../domain/games.ts';

let history: GameEvent[] = [];
const listeners = new Set<() => void>();

export function recordGameEvent(event: Omit<GameEvent, 'at'>): void {
  history = addGameEvent(history, { ...event, at: Date.now() });
  for (const l of listeners) l();
}

export function useGameEvents(sessionId: string): GameEvent[] {
  const all = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => history,
  );
  return all.filter((e) => e.sessionId === sessionId);
}
