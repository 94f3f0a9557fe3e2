// A small dot that says whether a member is online (from the online-users presence channel).
import { useIsOnline } from '../app/use-presence.ts';

export function OnlineIndicator({ userId, label }: { userId: string | undefined; label?: string }) {
  const online = useIsOnline(userId);
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted" data-online={online}>
      <span
        aria-hidden="true"
        className={`inline-block size-2.5 rounded-full ${online ? 'bg-green-500' : 'bg-gray-400'}`}
      />
      {label ?? (online ? 'Online' : 'Offline')}
    </span>
  );
}
