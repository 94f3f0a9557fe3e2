import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Most server and SQL tests wait on I/O (the server, PostgreSQL, sockets): more files than cores in
    // flight keeps a 2-core CI machine busy without starving timing-sensitive tests.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.{ts,tsx}',
            'server/**/*.test.ts',
            'supabase/functions/**/*.test.ts',
            'tests/e2e/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'sql',
          include: ['tests/sql/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
