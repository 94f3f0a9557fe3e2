// Access-matrix entries for the premium tables (agents, Lovy, calls, games), filled by their owners.
// Same shape as coreMatrix (documented at the top of access-matrix.ts); the runner and coverage test pick them up.
import type { MatrixEntry } from './access-matrix.ts';

export const premiumMatrix: MatrixEntry[] = [];
