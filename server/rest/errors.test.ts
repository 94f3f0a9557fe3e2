import { DatabaseError } from 'pg';
import { describe, expect, it } from 'vitest';
import { toRestError } from './errors.ts';

describe('toRestError', () => {
  it("answers a database's error by its SQLSTATE", () => {
    const e = new DatabaseError('duplicate key value violates unique constraint "x"', 0, 'error');
    e.code = '23505';
    expect(toRestError(e, true)).toMatchObject({ status: 409, code: '23505' });
  });

  it('answers a socket error (a code shaped like a SQLSTATE) as a lost connection, 503, never 400', () => {
    // What a write to a connection the database has closed throws: Node's system error.
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32, syscall: 'write' });
    expect(toRestError(epipe, true)).toMatchObject({ status: 503, code: 'PGRST001' });
  });
});
