// Toast state of spec §9: one toast at a time, auto-dismiss after its duration, removed 3 s after dismissal.
import { createStore } from './external-store.ts';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself; the generic default is 5000. */
  duration?: number;
  action?: { label: string; onClick: () => void };
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

export const TOAST_LIMIT = 1;
export const TOAST_DEFAULT_DURATION_MS = 5000;
/** Account flows close their toasts after 3 s. */
export const ACCOUNT_TOAST_DURATION_MS = 3000;
export const TOAST_REMOVE_DELAY_MS = 3000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

const store = createStore<ToastItem[]>([]);
let nextId = 1;
const removeTimers = new Map<number, ReturnType<typeof setTimeout>>();

const emit = (next: ToastItem[]) => store.set(next);

export const subscribeToasts = store.subscribe;

export function getToasts(): ToastItem[] {
  return store.get();
}

/** Shows a toast, replacing the one on screen; returns its id. */
export function toast(input: ToastInput): number {
  const id = nextId++;
  emit([{ ...input, id, open: true }, ...store.get()].slice(0, TOAST_LIMIT));
  return id;
}

/** Closes a toast (or all) and removes it from the list 3 s later. */
export function dismissToast(id?: number): void {
  emit(store.get().map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  for (const t of store.get()) {
    if ((id !== undefined && t.id !== id) || removeTimers.has(t.id)) continue;
    removeTimers.set(
      t.id,
      setTimeout(() => {
        removeTimers.delete(t.id);
        emit(store.get().filter((x) => x.id !== t.id));
      }, TOAST_REMOVE_DELAY_MS),
    );
  }
}

/** Shortcuts for account flows: 3 s, destructive for errors. */
export function toastSuccess(title: string, description?: string): number {
  return toast({ title, ...(description ? { description } : {}), duration: ACCOUNT_TOAST_DURATION_MS });
}

export function toastError(title: string, description?: string): number {
  return toast({
    title,
    ...(description ? { description } : {}),
    variant: 'destructive',
    duration: ACCOUNT_TOAST_DURATION_MS,
  });
}
