// A small dot that says whether a member is online (from the online-users presence channel).
import { useHidesOwnStatus, useIsOnline } from '../session/use-presence.ts';
import { useAuth } from '../session/auth-context.tsx';
import { useOnline } from '../data/network.ts';

export function OnlineIndicator({ userId, label }: { userId: string | undefined; label?: string }) {
  const online = useIsOnline(userId);
  const deviceOnline = useOnline();
  const { user } = useAuth();
  // The member's own dot: with "Show my online status" off nobody sees them online, and they are told so.
  const own = userId !== undefined && userId === user?.id;
  const hidden = useHidesOwnStatus() && own;
  // The member's own dot before the channel has them (the first seconds of a launch): their device is
  // online, so "Offline" would be wrong; they are being connected.
  const connecting = own && !online && !hidden && deviceOnline;
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
      {label ?? (hidden ? 'Hidden' : online ? 'Online' : connecting ? 'Connecting…' : 'Offline')}
    </span>
  );
}
