// The pending-deletion and paused-account banners of spec §4, shown at the top of the member area.
import { getDeletionBanner, getPauseBannerText } from '../../domain/account-status-wording.ts';
import { useCancelDeletion, useDeletionStatus, usePauseStatus, useReactivate } from './use-account-status.ts';

export function DeletionBanner() {
  const { data } = useDeletionStatus();
  const cancel = useCancelDeletion();
  if (!data) return null;
  const banner = getDeletionBanner(data.scheduledFor, new Date());
  const red = banner.tone === 'red';
  return (
    <div
      role="alert"
      data-testid="deletion-banner"
      data-tone={banner.tone}
      className={`flex flex-wrap items-center justify-between gap-3 border-b px-4 py-3 text-sm ${
        red ? 'border-red-300 bg-red-100 text-red-900' : 'border-yellow-300 bg-yellow-100 text-yellow-900'
      }`}
    >
      <p>{banner.text}</p>
      <button
        type="button"
        className="rounded-lg border border-current px-3 py-1 font-semibold"
        disabled={cancel.isPending}
        onClick={() => cancel.mutate()}
      >
        Cancel deletion
      </button>
    </div>
  );
}

export function PauseBanner() {
  const { data } = usePauseStatus();
  const reactivate = useReactivate();
  if (!data?.isPaused) return null;
  return (
    <div
      role="status"
      data-testid="pause-banner"
      className="flex flex-wrap items-center justify-between gap-3 border-b border-blue-300 bg-blue-100 px-4 py-3 text-sm text-blue-900"
    >
      <p>{getPauseBannerText(data.pauseEndDate, new Date())}</p>
      <button
        type="button"
        className="rounded-lg border border-current px-3 py-1 font-semibold"
        disabled={reactivate.isPending}
        onClick={() => reactivate.mutate()}
      >
        Reactivate
      </button>
    </div>
  );
}
