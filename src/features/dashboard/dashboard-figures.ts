// The figures the dashboard showed last on this device, kept as its screen snapshot (decision 0093) so that the
// next start paints them while the replica opens (decision 0104). Read back only in the shape written here.
import { isCount } from '../../data/snapshot-value.ts';
import type { ProfileCompleteness } from '../../domain/profile-completeness.ts';

/** What the dashboard showed last: its four counts, the first name it greeted and the completeness. */
export interface DashboardFigures {
  likes: number;
  matches: number;
  messages: number;
  notifications: number;
  firstName: string | null;
  completeness: ProfileCompleteness;
}

function isNextStep(v: unknown): v is ProfileCompleteness['next'] {
  if (v === undefined) return true;
  if (typeof v !== 'object' || v === null) return false;
  const { to, label } = v as Record<string, unknown>;
  // An in-app path only: the step is a link.
  return typeof label === 'string' && typeof to === 'string' && to.startsWith('/') && !to.startsWith('//');
}

function isCompleteness(v: unknown): v is ProfileCompleteness {
  if (typeof v !== 'object' || v === null) return false;
  const { percent, missing, next } = v as Record<string, unknown>;
  return (
    isCount(percent) &&
    percent <= 100 &&
    Array.isArray(missing) &&
    missing.every((m) => typeof m === 'string') &&
    isNextStep(next)
  );
}

/** The snapshot's figures (its one row), when they have the shape this version writes; else undefined. */
export function parseDashboardFigures(rows: readonly unknown[] | undefined): DashboardFigures | undefined {
  const f = rows?.[0];
  if (typeof f !== 'object' || f === null) return undefined;
  const { likes, matches, messages, notifications, firstName, completeness } = f as Record<string, unknown>;
  if (![likes, matches, messages, notifications].every(isCount)) return undefined;
  if (firstName !== null && typeof firstName !== 'string') return undefined;
  if (!isCompleteness(completeness)) return undefined;
  return f as DashboardFigures;
}
