// One thread of server/auth/password-pool.ts: runs a whole argon2 hash or verification here, its
// 19 MiB memory setup included, so none of it lands on the event loop.
// Plain JavaScript so it loads the same under tsx, vitest and node.
import { parentPort } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

if (!parentPort) throw new Error('password-worker.mjs runs only as a worker thread');
const port = parentPort;

port.on('message', (task) => {
  try {
    const result =
      task.kind === 'hash' ? hashSync(task.password, task.options) : verifySync(task.hash, task.password);
    port.postMessage({ id: task.id, result });
  } catch (e) {
    port.postMessage({ id: task.id, error: e instanceof Error ? e.message : String(e) });
  }
});
