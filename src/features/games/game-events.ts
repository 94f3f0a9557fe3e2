// The game event history of the spec (§3: GAME_INVITATION_SENT ... GAME_STATE_CHANGED, at most 100 events),
// for this device's session: what the member did and what reached them through sync.
import { addGameEvent, type GameEvent } from '../../domain/games.ts';
import { createStore, useStore } from '../../ui/external-store.ts';

const history = createStore<GameEvent[]>([]);

export function recordGameEvent(event: Omit<GameEvent, 'at'>): void {
  history.set(addGameEvent(history.get(), { ...event, at: Date.now() }));
}

export function useGameEvents(sessionId: string): GameEvent[] {
  return useStore(history).filter((e) => e.sessionId === sessionId);
}
