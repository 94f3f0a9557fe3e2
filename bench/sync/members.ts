// The sync bench's members (bench/sync/*.ts).

/**
 * The bench's members: a member token names its member by id (a UUID, as the server requires of every
 * member token), so each side gets a fixed one.
 */
export const BENCH_MEMBERS = {
  writer: '00000000-0000-4000-8000-00000000b001',
  reader: '00000000-0000-4000-8000-00000000b002',
  owner: '00000000-0000-4000-8000-00000000b003',
} as const;
export type BenchMember = keyof typeof BENCH_MEMBERS;
