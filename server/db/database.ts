// One small interface over the two databases the server runs on: embedded PGlite or PostgreSQL over a pool.
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  /** A prepared statement's name, for statements run on every request with the same text. */
  name?: string;
}

export interface Queryable {
  /**
   * One parameterised statement. `options.name` prepares it once per connection under that name (the
   * text must be constant for the name), on PostgreSQL and on PGlite alike.
   */
  query<T = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<T>>;
  /** Several statements without parameters (migrations, SET LOCAL). */
  exec(sql: string): Promise<void>;
}

/** A statement with its parameters, run by the database before a transaction's own statements. */
export interface SetupStatement {
  text: string;
  params: unknown[];
  /** As QueryOptions.name: prepared once per connection. */
  name?: string;
}

export interface TransactionOptions {
  /** BEGIN READ ONLY: the transaction may not write. */
  readOnly?: boolean;
  /**
   * Statements that open the transaction (the caller's role and claims, say); their rows are not answered.
   * On PostgreSQL they travel with BEGIN and the transaction's first statement in one round trip
   * (decision 0089); a failing one fails that first statement with its own error.
   */
  setup?: SetupStatement[];
  /**
   * fn runs one statement (a REST read): on PostgreSQL COMMIT is sent right behind it, so the whole
   * transaction is one round trip (decision 0090). Only with readOnly, where committing and rolling back
   * are the same: fn may still fail after its statement. A second statement is refused on both databases.
   */
  oneStatement?: boolean;
}

/** What a second statement of a transaction opened for one statement is refused with. */
export const ONE_STATEMENT_CLOSED = 'Transaction is closed: it was opened for one statement';

/** Refuses oneStatement without readOnly, on every database: a COMMIT already sent cannot roll a write back. */
export function checkTransactionOptions(options: TransactionOptions): void {
  if (options.oneStatement && !options.readOnly)
    throw new Error('oneStatement needs readOnly: a write must be able to roll back after its statement');
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** LISTEN on a channel; returns the function that stops listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Type OIDs parsed the same way on both databases so callers never see a difference. */
export const TYPE_OIDS = {
  int8: 20,
  date: 1082,
  numeric: 1700,
} as const;

/** A database error carrying the SQLSTATE and the fields PostgREST passes on. */
export interface DatabaseError extends Error {
  code: string;
  detail?: string;
  hint?: string;
  constraint?: string;
}

export function isDatabaseError(e: unknown): e is DatabaseError {
  return (
    e instanceof Error &&
    typeof (e as { code?: unknown }).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((e as DatabaseError).code) &&
    // A socket's own error has a code of that shape too (EPIPE, write to a connection the database closed)
    // and names its system call: it is a lost connection, not an answer of the database.
    !('syscall' in e)
  );
}
