// Asks before something that cannot be undone (block, unmatch, delete), in the app's own dialog: never the
// browser's confirm(), which looks foreign and which automation cannot answer. Cancel has the focus.
import { Modal } from './modal.tsx';

export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      role="alertdialog"
      labelledBy="confirm-title"
      describedBy="confirm-text"
      onClose={onCancel}
      className="md:max-w-md"
    >
      <div className="space-y-3">
        <h2 id="confirm-title" className="text-xl font-semibold">
          {title}
        </h2>
        <p id="confirm-text">{text}</p>
        <div className="flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn-primary" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </Modal>
  );
}
