// Accepting and declining an invitation with the spec's words (§8): "Game Started" / "Let's play!",
// "Game Declined", and "Error" with "Failed to accept (decline) game invitation".
import type { PowerSyncDatabase } from '../../data/replica.tsx';
import { GAME_TEXT } from '../../domain/games.ts';
import { toast } from '../../ui/toast-store.ts';
import { acceptInvitation, declineInvitation, type SessionRow } from './games-data.ts';

export async function acceptWithToast(db: PowerSyncDatabase, session: SessionRow): Promise<boolean> {
  try {
    await acceptInvitation(db, session);
    toast({ title: GAME_TEXT.startedTitle, description: GAME_TEXT.startedBody });
    return true;
  } catch {
    toast({ title: GAME_TEXT.errorTitle, description: GAME_TEXT.acceptFailed, variant: 'destructive' });
    return false;
  }
}

export async function declineWithToast(db: PowerSyncDatabase, session: SessionRow): Promise<boolean> {
  try {
    await declineInvitation(db, session);
    toast({
      title: GAME_TEXT.declinedTitle,
      description: `You declined ${session.game_name ?? 'the game'}.`,
    });
    return true;
  } catch {
    toast({ title: GAME_TEXT.errorTitle, description: GAME_TEXT.declineFailed, variant: 'destructive' });
    return false;
  }
}
