// A small dot that says whether a member is online (from the online-users presence channel).
import { useHidesOwnStatus, useIsOnline } from '../session/use-presence.ts';
import { useAuth } from '../session/auth-context.tsx';

export function OnlineIndicator({ userId, label }: { userId: string | undefined; label?: string }) {
  const online = useIsOnline(userId);
  const { user } = useAuth();
  // The member's own dot: with "Show my online status" off nobody sees them online, and they are told so.
  const hidden = useHidesOwnStatus() && userId !== undefined && userId === user?.id;
  return (
    <span
      className="inline-flex items-center gap-1.5 text-xs text-muted"
      data-online={online}
      data-hidden={hidden || undefined}
    >
      <span
        aria-hidden="true"
        className={`inline-block size-2.5 rounded-full ${online ? 'bg-green-500' : 'bg-gray-400'}`}
      />
      {label ?? (hidden ? 'Hidden' : online ? 'Online' : 'Offline')}
    </span>
  );
}
