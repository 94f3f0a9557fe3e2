import { describe, expect, it } from 'vitest';
import { getRpcStatementName } from './handle-rpc.ts';
import { parseReadQuery } from './handle-table.ts';

const query = (search: string) => parseReadQuery(new URLSearchParams(search), undefined);

describe('getRpcStatementName', () => {
  it('names a plain call by its text: the same text the same name, another text another', () => {
    const a = getRpcStatementName('select 1 from public.f()', query(''));
    expect(a).toMatch(/^hs_rpc_[0-9a-f]{32}$/);
    expect(getRpcStatementName('select 1 from public.f()', query('select=*'))).toBe(a);
    expect(getRpcStatementName('select 1 from public.g()', query(''))).not.toBe(a);
  });

  it('leaves unnamed a call whose text the client shapes (select list, filters, order)', () => {
    for (const search of ['select=title', 'sq=gt.1', 'order=n.desc'])
      expect(getRpcStatementName('select 1 from public.f()', query(search))).toBeUndefined();
  });
});
