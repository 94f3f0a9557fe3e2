// The parts of the backend in the order they are registered. Each is one folder of server/.
import type { AppParts } from './app.ts';
import { registerAuth } from './auth/auth-part.ts';
import { registerMail } from './mail/mail-part.ts';
import { registerRealtime } from './realtime/index.ts';
import { registerRest } from './rest/index.ts';
import { registerStorage } from './storage/storage-part.ts';
import { registerFunctions } from './functions/functions-part.ts';
import { registerScheduler } from './jobs/scheduler-part.ts';
import { syncPart } from './sync/sync-part.ts';

export const parts: AppParts = [
  registerMail,
  registerAuth,
  registerRealtime,
  registerStorage,
  registerFunctions,
  registerScheduler,
  registerRest,
  syncPart,
];
