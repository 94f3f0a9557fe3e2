// Reads the per-function settings the host honours from supabase/config.toml, the file the Supabase CLI
// deploys from: only `verify_jwt` under `[functions.<name>]`, so a full TOML parser is not needed.
import fs from 'node:fs';

export interface FunctionSettings {
  verifyJwt: boolean;
}

export function readFunctionSettings(file: string): Map<string, FunctionSettings> {
  const settings = new Map<string, FunctionSettings>();
  if (!fs.existsSync(file)) return settings;
  return parseFunctionSettings(fs.readFileSync(file, 'utf8'));
}

export function parseFunctionSettings(toml: string): Map<string, FunctionSettings> {
  const settings = new Map<string, FunctionSettings>();
  let current: string | undefined;
  for (const raw of toml.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line.startsWith('[')) {
      current = /^\[functions\.("?)([a-z0-9_-]+)\1\]$/.exec(line)?.[2];
      continue;
    }
    const verify = /^verify_jwt\s*=\s*(true|false)$/.exec(line);
    if (current && verify) settings.set(current, { verifyJwt: verify[1] === 'true' });
  }
  return settings;
}
