// Which replica tables a watched query reads, found in its SQL text, so the query is re-run when they change.
// Without this list PowerSync finds the tables itself before the first run (an EXPLAIN of the query and a
// sqlite_master lookup: two more round trips to the database worker per query on every screen's start).

/**
 * The names of `known` tables that appear as words in `sql`, in order of first appearance; undefined when
 * the SQL names none of them or names a PowerSync internal table (ps_...), which then are left to the library.
 * A word that only looks like a table (a column or alias of the same name, a word in a string) adds a table
 * that re-runs the query needlessly, never a missed change: every table a query reads is named in its text.
 */
export function tablesOfQuery(sql: string, known: ReadonlySet<string>): string[] | undefined {
  const found: string[] = [];
  for (const match of sql.toLowerCase().matchAll(/[a-z_][a-z0-9_$]*/g)) {
    const word = match[0];
    if (word.startsWith('ps_') || word.startsWith('sqlite_')) return undefined;
    if (known.has(word) && !found.includes(word)) found.push(word);
  }
  return found.length > 0 ? found : undefined;
}
