// One thread of server/auth/password-pool.ts: runs a whole argon2 hash or verification here, its
// 19 MiB memory setup included, so none of it lands on the event loop.
// Plain JavaScript so it loads the same under tsx, vitest and node.
import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

if (!parentPort) throw new Error('password-worker.mjs runs only as a worker thread');
const port = parentPort;

// Below the event loop in the scheduler's eyes (decision 0078): when both compete for a core, the thread that
// answers every request, sync stream and socket runs first, and hashes take the time it leaves. On Linux a
// thread has its own nice value (this thread's id from /proc/thread-self); elsewhere nothing changes.
try {
  const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + 10));
} catch {
  /* not Linux, or not allowed: hashes keep the process's priority */
}

port.on('message', (task) => {
  try {
    const result =
      task.kind === 'hash' ? hashSync(task.password, task.options) : verifySync(task.hash, task.password);
    port.postMessage({ id: task.id, result });
  } catch (e) {
    port.postMessage({ id: task.id, error: e instanceof Error ? e.message : String(e) });
  }
});
