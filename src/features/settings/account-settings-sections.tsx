// /account sections: change password, privacy settings, notification preferences (this device) and data export.
import { useState, type FormEvent } from 'react';
import { useAuth } from '../../session/auth-context.tsx';
import { useQuery, useReplica } from '../../data/replica.tsx';
import { checkPasswordStrict } from '../../domain/password-rules.ts';
import { toast } from '../../ui/toast-store.ts';
import { updatePassword } from '../accounts/auth-actions.ts';
import { fetchDataExport } from './settings-api.ts';
import { NOTIFY_MESSAGES_KEY, setDeviceSetting, useDeviceSetting } from '../messages/messages-data.ts';

export function ChangePasswordSection() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const check = checkPasswordStrict(password);
    if (!check.valid) return setError(check.message);
    if (password !== confirm) return setError('Passwords do not match');
    setError(undefined);
    setBusy(true);
    if (await updatePassword(password)) {
      setPassword('');
      setConfirm('');
    }
    setBusy(false);
  }

  return (
    <section aria-labelledby="password-heading" className="card">
      <h2 id="password-heading" className="text-xl font-semibold">
        Change password
      </h2>
      <form onSubmit={(e) => void onSubmit(e)} className="mt-3 space-y-3" noValidate>
        <div>
          <label htmlFor="new-password" className="mb-1 block text-sm font-medium">
            New password
          </label>
          <input
            id="new-password"
            type="password"
            autoComplete="new-password"
            className="input max-w-sm"
            value={password}
            aria-describedby={error ? 'password-error' : undefined}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="confirm-password" className="mb-1 block text-sm font-medium">
            Confirm new password
          </label>
          <input
            id="confirm-password"
            type="password"
            autoComplete="new-password"
            className="input max-w-sm"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </div>
        {error && (
          <p id="password-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <button type="submit" className="btn-primary" disabled={busy || !password}>
          {busy ? 'Updating...' : 'Update password'}
        </button>
      </form>
    </section>
  );
}

const PRIVACY_SETTINGS = [
  {
    column: 'show_online_status',
    label: 'Show my online status',
    hint: 'Matches see when you are online.',
  },
  {
    column: 'show_distance',
    label: 'Show my distance band',
    hint: 'Others see roughly how far away you are (never your location).',
  },
  {
    column: 'read_receipts',
    label: 'Send read receipts',
    hint: 'Matches see when you have read their messages. Off: they see "Delivered" only.',
  },
] as const;
type PrivacyColumn = (typeof PRIVACY_SETTINGS)[number]['column'];

export function PrivacySection() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const db = useReplica();
  const { data, isLoading } = useQuery<Record<PrivacyColumn, number>>(
    'select show_online_status, show_distance, read_receipts from profiles where id = ?',
    [me],
  );
  const row = data[0];

  async function toggle(column: PrivacyColumn, on: boolean) {
    // The column name comes from the constant list above, never from input; values are parameters.
    await db.execute(`update profiles set ${column} = ?, updated_at = ? where id = ?`, [
      on ? 1 : 0,
      new Date().toISOString(),
      me,
    ]);
  }

  return (
    <section aria-labelledby="privacy-heading" className="card">
      <h2 id="privacy-heading" className="text-xl font-semibold">
        Privacy
      </h2>
      {isLoading || !row ? (
        <p className="mt-3">Loading...</p>
      ) : (
        <ul className="mt-3 space-y-3">
          {PRIVACY_SETTINGS.map((s) => (
            <li key={s.column}>
              <label className="flex items-start gap-3">
                <input
                  type="checkbox"
                  className="mt-1 size-4"
                  checked={row[s.column] === 1}
                  onChange={(e) => void toggle(s.column, e.target.checked)}
                />
                <span>
                  <span className="block font-medium">{s.label}</span>
                  <span className="block text-sm text-muted">{s.hint}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function NotificationPreferencesSection() {
  const db = useReplica();
  const messagesOn = useDeviceSetting(NOTIFY_MESSAGES_KEY) !== 'off';
  const [permission, setPermission] = useState(() =>
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );

  async function onToggle(on: boolean) {
    await setDeviceSetting(db, NOTIFY_MESSAGES_KEY, on ? 'on' : 'off');
    if (on && typeof Notification !== 'undefined' && Notification.permission === 'default')
      setPermission(await Notification.requestPermission());
  }

  return (
    <section aria-labelledby="notify-heading" className="card">
      <h2 id="notify-heading" className="text-xl font-semibold">
        Notifications
      </h2>
      <p className="mt-1 text-sm text-muted">
        Everything always appears on your Notifications page. These choices are for this device.
      </p>
      <label className="mt-3 flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 size-4"
          checked={messagesOn}
          onChange={(e) => void onToggle(e.target.checked)}
        />
        <span>
          <span className="block font-medium">Browser notifications for new messages</span>
          <span className="block text-sm text-muted">Shown while HeartSync is open in a background tab.</span>
        </span>
      </label>
      {permission === 'denied' && (
        <p className="mt-2 text-sm">
          Your browser blocks notifications for this site; allow them in its settings.
        </p>
      )}
      {permission === 'unsupported' && (
        <p className="mt-2 text-sm">This browser does not support notifications.</p>
      )}
    </section>
  );
}

export function DataExportSection() {
  const [busy, setBusy] = useState(false);

  async function onExport() {
    setBusy(true);
    try {
      const text = await fetchDataExport();
      const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `heartsync-export-${new Date().toISOString().slice(0, 10)}.json`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast({ title: 'Export ready', description: 'Your data has been downloaded.' });
    } catch {
      toast({
        title: 'Export failed',
        description: 'Your data could not be exported. Please try again when you are online.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="export-heading" className="card">
      <h2 id="export-heading" className="text-xl font-semibold">
        Your data
      </h2>
      <p className="mt-1 text-sm text-muted">
        Download everything your account holds (profile, messages, likes, matches, agents, notifications) as a
        JSON file. Other members appear only with what their public profile shows.
      </p>
      <button type="button" className="btn-secondary mt-3" disabled={busy} onClick={() => void onExport()}>
        {busy ? 'Preparing...' : 'Download my data'}
      </button>
    </section>
  );
}
