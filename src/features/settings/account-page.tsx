// /account: password, privacy, blocked members (unblock), notifications, appearance, pause or reactivate, data export, schedule or cancel deletion (password required).
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { signOutEverywhere } from '../accounts/auth-actions.ts';
import {
  PAUSE_DURATIONS,
  PAUSE_DURATION_LABELS,
  getDeletionBanner,
  getPauseBannerText,
  type PauseDuration,
} from '../../domain/account-status-wording.ts';
import {
  useCancelDeletion,
  useDeletionStatus,
  usePause,
  usePauseStatus,
  useReactivate,
  useScheduleDeletion,
} from '../accounts/use-account-status.ts';
import { ThemeMenu } from '../../ui/theme-menu.tsx';
import {
  ChangePasswordSection,
  DataExportSection,
  NotificationPreferencesSection,
  PrivacySection,
} from './account-settings-sections.tsx';
import { BlockedMembersSection } from './blocked-members-section.tsx';

function PauseSection() {
  const { data, isLoading, error } = usePauseStatus();
  const pause = usePause();
  const reactivate = useReactivate();
  const [duration, setDuration] = useState<PauseDuration>('1-week');
  return (
    <section aria-labelledby="pause-heading" className="card">
      <h2 id="pause-heading" className="text-xl font-semibold">
        Pause your account
      </h2>
      <p className="mt-1 text-sm text-muted">
        While paused you are hidden from discovery. Your matches and messages stay as they are.
      </p>
      {isLoading && <p className="mt-3">Loading...</p>}
      {error && <p className="mt-3 text-red-700">Could not load your account status: {error.message}</p>}
      {data?.isPaused ? (
        <div className="mt-4 space-y-3">
          <p>{getPauseBannerText(data.pauseEndDate, new Date())}</p>
          <button
            type="button"
            className="btn-primary"
            disabled={reactivate.isPending}
            onClick={() => reactivate.mutate()}
          >
            Reactivate account
          </button>
        </div>
      ) : (
        data && (
          <form
            className="mt-4 flex flex-wrap items-end gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              pause.mutate(duration);
            }}
          >
            <div>
              <label htmlFor="pause-duration" className="mb-1 block text-sm font-medium">
                Pause for
              </label>
              <select
                id="pause-duration"
                className="input"
                value={duration}
                onChange={(e) => setDuration(e.target.value as PauseDuration)}
              >
                {PAUSE_DURATIONS.map((d) => (
                  <option key={d} value={d}>
                    {PAUSE_DURATION_LABELS[d]}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn-secondary" disabled={pause.isPending}>
              Pause account
            </button>
          </form>
        )
      )}
    </section>
  );
}

function DeletionSection() {
  const { data, isLoading } = useDeletionStatus();
  const schedule = useScheduleDeletion();
  const cancel = useCancelDeletion();
  const [password, setPassword] = useState('');

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!password) return;
    schedule.mutate(password, { onSuccess: () => setPassword('') });
  }

  return (
    <section aria-labelledby="delete-heading" className="card">
      <h2 id="delete-heading" className="text-xl font-semibold">
        Delete your account
      </h2>
      {isLoading ? (
        <p className="mt-3">Loading...</p>
      ) : data ? (
        <div className="mt-3 space-y-3">
          <p>{getDeletionBanner(data.scheduledFor, new Date()).text}</p>
          <p className="text-sm text-muted">
            Scheduled for {data.scheduledFor.toLocaleDateString()}. Until then you can change your mind.
          </p>
          <button
            type="button"
            className="btn-primary"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate()}
          >
            Cancel deletion
          </button>
        </div>
      ) : (
        <form onSubmit={onSubmit} className="mt-3 space-y-3">
          <p className="text-sm text-muted">
            Your account, profile, matches, messages and photos are deleted for good after a grace period (30
            days unless this instance says otherwise). You can cancel until then. Enter your password to
            confirm.
          </p>
          <div>
            <label htmlFor="delete-password" className="mb-1 block text-sm font-medium">
              Password
            </label>
            <input
              id="delete-password"
              type="password"
              autoComplete="current-password"
              required
              className="input max-w-sm"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          <button
            type="submit"
            className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
            disabled={schedule.isPending || !password}
          >
            Schedule deletion
          </button>
        </form>
      )}
    </section>
  );
}

/** Ends the member's sessions on every device, this one included; the sidebar's Sign Out ends this one only. */
function SignOutEverywhere() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn-secondary mt-3"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void signOutEverywhere().then((ok) => {
          setBusy(false);
          if (ok) void navigate('/');
        });
      }}
    >
      Log out of all devices
    </button>
  );
}

export default function AccountPage() {
  const { user } = useAuth();
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-6 p-6">
      <h1 className="text-3xl font-bold">Account</h1>
      <section aria-labelledby="signed-in-heading" className="card">
        <h2 id="signed-in-heading" className="text-xl font-semibold">
          Signed in
        </h2>
        <p className="mt-1">{user?.email}</p>
        <SignOutEverywhere />
      </section>
      <section aria-labelledby="appearance-heading" className="card flex items-center justify-between">
        <h2 id="appearance-heading" className="text-xl font-semibold">
          Appearance
        </h2>
        <ThemeMenu />
      </section>
      <ChangePasswordSection />
      <PrivacySection />
      <BlockedMembersSection />
      <NotificationPreferencesSection />
      <PauseSection />
      <DataExportSection />
      <DeletionSection />
    </main>
  );
}
