// bench:soak — the load and soak run of issue 21, bounded and on loopback only: SOAK_MEMBERS (default 500)
// members sign in with a password, sync, swipe and message for SOAK_SECONDS (default 600) through two
// server processes behind a round-robin proxy on one PostgreSQL (BENCH_DATABASE_URL); halfway, one process
// is killed (SIGKILL) and started again. It prints every error response, acknowledged messages missing from
// the database or from their recipient's replica, duplicated messages, and each process's memory every
// 30 s; the last line says whether the run held (no error response, nothing lost or duplicated, memory
// not growing by more than a quarter between the second sample and the last).
import os from 'node:os';
import { formatResult, runScenario } from './scenario.ts';

async function main() {
  const baseUrl = process.env['BENCH_DATABASE_URL'];
  if (!baseUrl) {
    console.error('bench:soak needs BENCH_DATABASE_URL (a PostgreSQL server where it may create databases)');
    process.exit(1);
  }
  const seconds = Number(process.env['SOAK_SECONDS'] ?? 600);
  const members = Number(process.env['SOAK_MEMBERS'] ?? 500);
  console.log(
    `bench:soak: ${members} members signing in, syncing, swiping and messaging for ${seconds} s on 2 processes, ` +
      `one killed and restarted at ${Math.round(seconds / 2)} s; load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const r = await runScenario({
    baseUrl,
    processes: 2,
    members,
    realClients: Number(process.env['SOAK_REAL_CLIENTS'] ?? 10),
    ratePerMin: Number(process.env['SOAK_RATE'] ?? 6),
    swipesPerMin: Number(process.env['SOAK_SWIPES'] ?? 4),
    seconds,
    signIn: true,
    restartAfterSeconds: seconds / 2,
    memoryEverySeconds: 30,
    log: (line) => console.log(`  ${line}`),
  });
  console.log(formatResult(r));
  r.memory.forEach((m, i) => console.log(`  process ${i + 1} memory (MiB, every 30 s): ${m.join(' ')}`));
  // The first sample is before any load; the restarted process starts over at its restart.
  const grew = r.memory.some((m) => m.length > 2 && m.at(-1)! > 1.25 * Math.max(...m.slice(1, 3)));
  const held = r.errors.size === 0 && r.lostInDatabase === 0 && r.lostInReplicas === 0 && r.duplicated === 0;
  console.log(
    `soak ${held && !grew ? 'held' : 'did not hold'}: ${r.errors.size} kinds of error response, ` +
      `${r.lostInDatabase + r.lostInReplicas} lost, ${r.duplicated} duplicated, memory ${grew ? 'grew' : 'flat'}`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
