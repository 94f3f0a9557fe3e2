import { describe, expect, it } from 'vitest';
import { tablesOfQuery } from './query-tables.ts';
import { AppSchema } from './schema.ts';

const known = new Set(AppSchema.tables.map((t) => t.name));

describe('tablesOfQuery', () => {
  it('finds every table of a join with subqueries, once each', () => {
    const sql = `select m.id, pp.name, (select content from messages x where x.conversation_id = c.id limit 1)
      from matches m join (select id from matches) o on o.id = m.id
      left join public_profiles pp on pp.id = o.other_id left join conversations c on c.match_id = m.id`;
    expect(tablesOfQuery(sql, known)).toEqual(['messages', 'matches', 'public_profiles', 'conversations']);
  });

  it('finds comma joins, quoted names and any letter case', () => {
    expect(tablesOfQuery('SELECT * FROM "Profiles" p, match_preferences WHERE p.id = ?', known)).toEqual([
      'profiles',
      'match_preferences',
    ]);
  });

  it('finds local-only tables', () => {
    expect(tablesOfQuery('select value from device_settings where id = ?', known)).toEqual([
      'device_settings',
    ]);
  });

  it('leaves queries on internal or unknown tables to the library', () => {
    expect(tablesOfQuery('select id from ps_crud where tx_id = ?', known)).toBeUndefined();
    expect(tablesOfQuery('select * from matches, ps_oplog', known)).toBeUndefined();
    expect(tablesOfQuery('select name from sqlite_master', known)).toBeUndefined();
    expect(tablesOfQuery('select 1 as n', known)).toBeUndefined();
  });

  it('a word that is also a table name only adds a table (never drops one)', () => {
    expect(tablesOfQuery("select count(*) as matches from likes_x where type = 'messages'", known)).toEqual([
      'matches',
      'messages',
    ]);
  });
});
