// The report dialog: a category and details; the report stays pending for the operator and hides the pair at once.
// And the one question before a block, wherever it starts (a discovery card, the likes page, a conversation): a
// block is undone only from Account settings, so a stray tap never makes one.
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Modal } from '../../ui/modal.tsx';
import { toast } from '../../ui/toast-store.ts';
import {
  REPORT_CATEGORIES,
  REPORT_DETAILS_MAX,
  findReportError,
  reportMember,
  type ReportCategory,
} from './report-api.ts';

export function ReportDialog({
  reporterId,
  reported,
  onClose,
  onReported,
}: {
  reporterId: string;
  reported: { id: string; name: string };
  onClose: () => void;
  onReported: () => void;
}) {
  const [category, setCategory] = useState<ReportCategory | ''>('');
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = findReportError(category, details);
    if (problem) return setError(problem);
    setBusy(true);
    try {
      await reportMember(reporterId, reported.id, category as ReportCategory, details);
      toast({
        title: 'Report sent',
        description: `Thank you. You and ${reported.name} will no longer see each other.`,
      });
      onReported();
    } catch {
      setError('Failed to send the report. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal labelledBy="report-title" onClose={onClose} className="md:max-w-md">
      <form className="space-y-3" onSubmit={(e) => void onSubmit(e)}>
        <h2 id="report-title" className="text-xl font-semibold">
          Report {reported.name}
        </h2>
        <label className="block">
          <span className="text-sm font-medium">What is wrong?</span>
          <select
            className="input mt-1 w-full"
            value={category}
            autoFocus
            onChange={(e) => setCategory(e.target.value as ReportCategory)}
          >
            <option value="">Choose…</option>
            {REPORT_CATEGORIES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          <span className="text-sm font-medium">Details</span>
          <textarea
            className="input mt-1 w-full"
            rows={4}
            maxLength={REPORT_DETAILS_MAX}
            value={details}
            onChange={(e) => setDetails(e.target.value)}
          />
        </label>
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn-primary" disabled={busy}>
            Send report
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function BlockConfirmDialog({
  name,
  onConfirm,
  onCancel,
}: {
  /** The member's first name as their card shows it. */
  name: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      title={`Block ${name}?`}
      text="You will no longer see each other or be able to message. You can unblock them in Account settings."
      confirmLabel="Block"
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
