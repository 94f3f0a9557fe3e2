// Makes the bus of this process and passes ended sessions between processes, so a sign-out through one
// process closes the member's sockets and forgets their session in every other (decision 0052).
import type { ServerEventBus } from '../context.ts';
import type { Database } from '../db/database.ts';
import { createLocalBus, createPostgresBus, type ClusterBus } from './cluster-bus.ts';

export async function connectProcesses(
  db: Database,
  events: ServerEventBus,
  log: { warn(msg: string): void },
): Promise<ClusterBus> {
  // PGlite lives inside one process: there is nobody to talk to.
  const bus = db.kind === 'postgres' ? await createPostgresBus(db, log) : createLocalBus();
  /** Events that came from another process: passed on here, never sent back out. */
  const fromOthers = new WeakSet<object>();
  events.on('sessions-ended', (event) => {
    if (!fromOthers.has(event)) bus.publish('sessions-ended', event);
  });
  bus.on('sessions-ended', (message) => {
    const event = { userId: message.userId, sessionIds: message.sessionIds };
    fromOthers.add(event);
    events.emit('sessions-ended', event);
  });
  return bus;
}
