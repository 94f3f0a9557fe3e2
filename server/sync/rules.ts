// Loads sync-rules.yaml with the PowerSync Service's own parser and evaluator, and adapts our rows to it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BaseJwtPayload,
  DEFAULT_HYDRATION_STATE,
  RequestParameters,
  SqlSyncRules,
  isEvaluatedParameters,
  isEvaluatedRow,
  toSyncRulesRow,
  type EvaluatedRow,
  type HydratedSyncConfig,
  type ResolvedBucket,
  type SourceTableRef,
  type SqliteJsonRow,
  type SqliteRow,
} from '@powersync/service-sync-rules';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_RULES_PATH = path.join(root, 'sync-rules/sync-rules.yaml');

export interface SourceTable {
  schema: string;
  name: string;
}

export interface LoadedRules {
  /** Hash of the YAML text: a change of rules re-replicates every captured table. */
  hash: string;
  config: HydratedSyncConfig;
  tables: SourceTable[];
}

export interface RowOutput {
  bucket: string;
  table: string;
  id: string;
  data: SqliteJsonRow;
}

export interface ParameterOutput {
  lookup: string;
  bucketParameters: SqliteJsonRow[];
}

/** Parses rules YAML; throws with every error the PowerSync parser reports. */
export function loadRules(yaml: string): LoadedRules {
  const { config, errors } = SqlSyncRules.fromYaml(yaml, { defaultSchema: 'public', throwOnError: false });
  const fatal = errors.filter((e) => e.type !== 'warning');
  if (fatal.length > 0) {
    throw new Error(`Invalid sync rules:\n${fatal.map((e) => `  ${e.message}`).join('\n')}`);
  }
  const hydrated = config.hydrate({ hydrationState: DEFAULT_HYDRATION_STATE, sqlite: null });
  const tables: SourceTable[] = [];
  for (const pattern of hydrated.getSourceTables()) {
    // Wildcard patterns (todos_%) would need a catalog scan at every boot; the rules do not use them.
    if (pattern.isWildcard)
      throw new Error(`Wildcard table patterns are not supported: ${pattern.tablePattern}`);
    if (!tables.some((t) => t.schema === pattern.schema && t.name === pattern.name)) {
      tables.push({ schema: pattern.schema, name: pattern.name });
    }
  }
  return { hash: crypto.createHash('sha256').update(yaml).digest('hex'), config: hydrated, tables };
}

export function loadRulesFile(file = DEFAULT_RULES_PATH): LoadedRules {
  return loadRules(fs.readFileSync(file, 'utf8'));
}

function getTableRef(table: SourceTable): SourceTableRef {
  return { connectionTag: 'default', schema: table.schema, name: table.name };
}

/** A Postgres row as to_jsonb gives it, in the SQLite value model the rules evaluate (booleans 1/0, JSON as text). */
function toRulesRow(rules: LoadedRules, row: Record<string, unknown>): SqliteRow {
  return rules.config.applyRowContext<never>(toSyncRulesRow(row as never));
}

/** The buckets, output tables and column values a row syncs to; evaluation errors go to onError. */
export function evaluateDataRow(
  rules: LoadedRules,
  table: SourceTable,
  row: Record<string, unknown>,
  onError: (message: string) => void,
): RowOutput[] {
  const ref = getTableRef(table);
  if (!rules.config.tableSyncsData(ref)) return [];
  const { results, errors } = rules.config.evaluateRowWithErrors({
    sourceTable: ref,
    record: toRulesRow(rules, row),
  });
  for (const e of errors) onError(e.error);
  return results.filter(isEvaluatedRow).map((r: EvaluatedRow) => ({
    bucket: r.bucket,
    table: r.table,
    id: String(r.id),
    data: r.data,
  }));
}

/** The parameter-lookup index entries a row of a parameter table yields. */
export function evaluateParameterRow(
  rules: LoadedRules,
  table: SourceTable,
  row: Record<string, unknown>,
  onError: (message: string) => void,
): ParameterOutput[] {
  const ref = getTableRef(table);
  if (!rules.config.tableSyncsParameters(ref)) return [];
  const { results, errors } = rules.config.evaluateParameterRowWithErrors(ref, toRulesRow(rules, row));
  for (const e of errors) onError(e.error);
  return results.filter(isEvaluatedParameters).map((r) => ({
    lookup: r.lookup.serializedRepresentation,
    bucketParameters: r.bucketParameters,
  }));
}

export function tableSyncsParameters(rules: LoadedRules, table: SourceTable): boolean {
  return rules.config.tableSyncsParameters(getTableRef(table));
}

export interface BucketResolver {
  /** Buckets that depend only on the token and request (fixed for the connection). */
  staticBuckets: ResolvedBucket[];
  /** Resolves all buckets, looking table-based parameter queries up through getParameterSets. */
  resolve(
    getParameterSets: (lookups: string[]) => Promise<Map<string, SqliteJsonRow[]>>,
  ): Promise<ResolvedBucket[]>;
}

/** The bucket resolver of one connection: request.user_id() is the token's sub. */
export function createBucketResolver(
  rules: LoadedRules,
  claims: Record<string, unknown>,
  clientParameters: Record<string, unknown>,
  includeDefaults: boolean,
): BucketResolver {
  const params = new RequestParameters(new BaseJwtPayload(claims), clientParameters);
  const { querier, errors } = rules.config.getBucketParameterQuerier({
    globalParameters: params,
    hasDefaultStreams: includeDefaults,
    streams: {},
  });
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('; '));
  return {
    staticBuckets: querier.staticBuckets,
    async resolve(getParameterSets) {
      if (!querier.hasDynamicBuckets) return querier.staticBuckets;
      const dynamic = await querier.queryDynamicBucketDescriptions({
        async getParameterSets(lookups) {
          const found = await getParameterSets(lookups.map((l) => l.serializedRepresentation));
          return lookups.map((lookup) => ({
            lookup,
            rows: found.get(lookup.serializedRepresentation) ?? [],
          }));
        },
      });
      const all = new Map<string, ResolvedBucket>();
      for (const b of [...querier.staticBuckets, ...dynamic]) if (!all.has(b.bucket)) all.set(b.bucket, b);
      return [...all.values()];
    },
  };
}
