// Environment parsed once at boot by one zod schema; the process exits with field errors when it does not fit.
import path from 'node:path';
import { z } from 'zod';

const flag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => (v === '' ? undefined : ['1', 'true', 'yes', 'on'].includes(v)));

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Public origin used in mailed links and redirects. */
  PUBLIC_URL: z.url().optional(),
  /** Folder for the embedded database, JWT keys, stored files and the outbox. */
  DATA_DIR: z.string().default('.data'),
  /** PostgreSQL connection string; when unset the embedded PGlite in DATA_DIR is used. */
  DATABASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed the demo community on an empty database (default: on unless NODE_ENV=production). */
  DEMO: flag.optional(),
  /** SMTP connection string (smtp://user:pass@host:port); without it mail goes to the outbox. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('HeartSync <no-reply@localhost>'),
  /** Serve stored mails at /_outbox (default: on unless NODE_ENV=production; it shows live links). */
  OUTBOX: flag.optional(),
  /**
   * With OUTBOX on, lets a client that is not on this machine read /_outbox by sending this token (header
   * x-outbox-token or ?token=). Without it the outbox answers loopback clients only; it never answers when
   * PUBLIC_URL is not a loopback origin (decision 0053).
   */
  OUTBOX_TOKEN: z.string().min(16).optional(),
  /** Longest a member's or visitor's REST statement may run before PostgreSQL cancels it (a 503). */
  REST_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** Comma-separated proxy addresses whose X-Forwarded-For is honoured. */
  TRUSTED_PROXIES: z.string().default(''),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86400).default(3600),
  /** Auth rate limit: sign-in, sign-up, recover and verify calls per window, per client address and per e-mail. */
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().min(1).max(100000).default(10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86400).default(10),
  /** Lifetime of mailed sign-up confirmation and password-reset links. */
  AUTH_LINK_TTL_SECONDS: z.coerce.number().int().min(60).max(604800).default(3600),
  /** Base delay before a failed SMTP delivery is retried (doubling per attempt). */
  MAIL_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  DELETION_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  OPERATOR_NAME: z.string().default('The operator of this HeartSync instance'),
  OPERATOR_CONTACT: z.string().default('privacy@localhost'),
  OPENAI_BASE_URL: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  /** The model server's speech model for Lovy's voice (e.g. tts-1); unset: the browser speaks. */
  OPENAI_TTS_MODEL: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /**
   * The demo checkout ("Demo payment: no money moves") when Stripe is not configured: defaults to DEMO, and is
   * never on with NODE_ENV=production.
   */
  DEMO_PAYMENTS: flag.optional(),
  /** Another Stripe-compatible API (tests' local peer); unset means Stripe itself. */
  STRIPE_API_URL: z.url().optional(),
  /** The paid plans as JSON (supabase/functions/_shared/plans.ts has the shape and the defaults). */
  PLANS_JSON: z.string().optional(),
  /** Calls through Stream (both set), else peer-to-peer WebRTC signalled over the realtime service. */
  STREAM_API_KEY: z.string().optional(),
  STREAM_API_SECRET: z.string().optional(),
  /** The WebRTC calls' STUN/TURN servers as JSON ([{"urls":"turn:host:3478","username":"u","credential":"p"}]). */
  ICE_SERVERS: z.string().optional(),
  /**
   * A hosted build's backend (the same variables `vite build` reads): their origins are added to the CSP's
   * connect-src when this server serves that build. Unset in self-contained mode, where the app talks to
   * whatever origin it was opened at.
   */
  VITE_SUPABASE_URL: z.url().optional(),
  VITE_POWERSYNC_URL: z.url().optional(),
  /** Server processes to run on one port (PostgreSQL only: PGlite serves one process). */
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  /** Interval of the scheduler that runs the SQL job functions. */
  JOB_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86400).default(60),
});

/** Where Stream's video SDK connects: its coordinator API and its SFU edge servers. */
export const STREAM_CONNECT_SOURCES = ['https://video.stream-io-api.com', 'https://*.stream-io-video.com'];

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends RawConfig {
  publicUrl: string;
  dataDir: string;
  demo: boolean;
  /** The demo checkout is offered (no Stripe, not production; DEMO_PAYMENTS, default DEMO). */
  demoPayments: boolean;
  outbox: boolean;
  trustedProxies: string[];
  /** Origins of a hosted backend, for the CSP (empty in self-contained mode). */
  backendOrigins: string[];
}

/** Parses the environment; throws an Error listing every field that does not fit. */
export function parseConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = result.data;
  const production = raw.NODE_ENV === 'production';
  const demo = raw.DEMO ?? !production;
  return {
    ...raw,
    publicUrl: (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, ''),
    dataDir: path.resolve(raw.DATA_DIR),
    demo,
    demoPayments: !production && !raw.STRIPE_SECRET_KEY && (raw.DEMO_PAYMENTS ?? demo),
    outbox: raw.OUTBOX ?? !production,
    trustedProxies: raw.TRUSTED_PROXIES.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    backendOrigins: [
      ...[raw.VITE_SUPABASE_URL, raw.VITE_POWERSYNC_URL]
        .filter((u): u is string => !!u)
        .map((u) => new URL(u).origin),
      // Calls through Stream: its API and its video edge servers (the SDK loads only when a call starts).
      ...(raw.STREAM_API_KEY && raw.STREAM_API_SECRET ? STREAM_CONNECT_SOURCES : []),
    ],
  };
}
