// bench:scale — one server process against two behind a round-robin TCP proxy, on one PostgreSQL
// (BENCH_DATABASE_URL): matched members message each other through REST while every member's replica
// follows the sync stream; prints messages delivered per second, delivery p50/p95/p99, lost and
// duplicated messages and each server process's memory, then the ratio of the two runs on its last line.
//
// SCALE_MEMBERS (default 200, in matched pairs); SCALE_REAL_CLIENTS of the readers (default 10) are real
// @powersync/node replicas, the rest read the sync protocol's lines directly. Every member sends
// SCALE_RATE messages a minute (default 28, under the SQL limit of 30) for SCALE_SECONDS (default 30).
// The processes, the clients and PostgreSQL share this machine: on 2 cores the second process competes
// with the clients for CPU, so read the ratio as what the code allows here, not as a cluster's scaling.
import os from 'node:os';
import { formatResult, runScenario, type ScenarioOptions } from './scenario.ts';

async function main() {
  const baseUrl = process.env['BENCH_DATABASE_URL'];
  if (!baseUrl) {
    console.error('bench:scale needs BENCH_DATABASE_URL (a PostgreSQL server where it may create databases)');
    process.exit(1);
  }
  const options: Omit<ScenarioOptions, 'processes'> = {
    baseUrl,
    members: Number(process.env['SCALE_MEMBERS'] ?? 200),
    realClients: Number(process.env['SCALE_REAL_CLIENTS'] ?? 10),
    ratePerMin: Number(process.env['SCALE_RATE'] ?? 28),
    seconds: Number(process.env['SCALE_SECONDS'] ?? 30),
  };
  console.log(
    `bench:scale: ${options.members} members (${options.realClients} real @powersync/node replicas), ` +
      `${options.ratePerMin} messages a minute each for ${options.seconds} s, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const one = await runScenario({ ...options, processes: 1 });
  console.log(formatResult(one));
  const two = await runScenario({ ...options, processes: 2 });
  console.log(formatResult(two));
  console.log(
    `ratio (2 processes / 1): delivered/s ${(two.deliveredPerSecond / one.deliveredPerSecond).toFixed(2)}x, ` +
      `p99 ${(two.p99 / one.p99).toFixed(2)}x (goal: >= 1.7x delivered at equal p99 when the offered load saturates one process)`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
