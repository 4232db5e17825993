import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurably } from '../base/durableWrite';

type Table = Record<string, unknown>;

function table(value: unknown): Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Table) : {};
}

/**
 * Writes what Gemini CLI needs to talk to its model only into `<HOME>/.gemini/settings.json` (the agent's own config
 * folder, `<home>/acp/gemini/`), keeping every other key. Checked against @google/gemini-cli 0.61.0 in ACP mode with
 * a local Gemini-API mock in a network namespace of its own, every lookup and connection traced:
 * - `privacy.usageStatisticsEnabled = false`: otherwise it posts usage events to https://play.googleapis.com/log
 *   (Clearcut) at every session and turn, and adds its installation id (`x-gemini-api-privileged-user-id`) to every
 *   model request. In the sandbox the egress proxy would refuse that host anyway; off, nothing is attempted.
 * That was the only host besides the model endpoint it looked up (its update check lives in the interactive UI). The
 * model endpoint comes from GOOGLE_GEMINI_BASE_URL (the credential proxy), with the key in GEMINI_API_KEY
 * (acpAgentEnv.ts); with that variable set it picks its "gateway" sign-in by itself, so no auth setting is needed.
 * Returns warnings (a settings file that was not JSON is rewritten).
 */
export function materializeGeminiSettings(home: string): string[] {
  const warnings: string[] = [];
  const dir = join(home, '.gemini');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'settings.json');
  let settings: Table = {};
  if (existsSync(file)) {
    try {
      settings = table(JSON.parse(readFileSync(file, 'utf8')));
    } catch (error) {
      warnings.push(`${file} was not valid JSON (${(error as Error).message}); it was rewritten`);
    }
  }
  const next: Table = { ...settings, privacy: { ...table(settings.privacy), usageStatisticsEnabled: false } };
  writeFileDurably(file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  return warnings;
}
