import type { ManifestMigrationStep } from './manifestMigration';
import { formatMemory } from './resourceQuantities';

type Table = Record<string, unknown>;

/** Capability names of the pre-0.1 draft, where they differ from §2's. */
const RENAMED_PERMISSIONS: Record<string, string> = {
  'fs.read': 'files.read',
  'fs.write': 'files.write',
  net: 'network',
  http: 'network',
  exec: 'process.exec',
  kv: 'memory',
  preview: 'media.preview',
};

/**
 * The pre-0.1 draft ("0.0") to schema 0.1:
 * - `permissions = [...]` (with the draft's names `fs.read`, `net`, ...) became `capabilities` (§2's names);
 * - `[resources] cpu_millicores = 500, memory_mb = 512` became `resources.cpu = "500m"`, `resources.mem = "512Mi"`;
 * - top-level `ui_hints = [...]` became `ui.hints`;
 * - `oauth_scopes` became required: an agent that had none gets `[]`.
 */
export const draft00To01: ManifestMigrationStep = {
  from: '0.0',
  to: '0.1',
  migrate(input) {
    const table: Table = { ...input };
    const changes: string[] = [];
    if ('permissions' in table) {
      const permissions = table.permissions;
      delete table.permissions;
      if (Array.isArray(permissions)) {
        const renamed = permissions.map((p: unknown) => (typeof p === 'string' ? (RENAMED_PERMISSIONS[p] ?? p) : p));
        const existing = Array.isArray(table.capabilities) ? (table.capabilities as unknown[]) : [];
        table.capabilities = [...new Set([...existing, ...renamed])];
        const renames = permissions.filter((p): p is string => typeof p === 'string' && p in RENAMED_PERMISSIONS).map((p) => `${p} → ${RENAMED_PERMISSIONS[p]}`);
        changes.push(`permissions → capabilities${renames.length ? ` (renamed ${renames.join(', ')})` : ''}`);
      } else {
        table.capabilities ??= permissions;
        changes.push('permissions → capabilities');
      }
    }
    if (typeof table.resources === 'object' && table.resources !== null && !Array.isArray(table.resources)) {
      const resources: Table = { ...(table.resources as Table) };
      if ('cpu_millicores' in resources) {
        const value = resources.cpu_millicores;
        delete resources.cpu_millicores;
        resources.cpu = typeof value === 'number' ? `${value}m` : value;
        changes.push(`resources.cpu_millicores = ${String(value)} → resources.cpu = ${JSON.stringify(resources.cpu)}`);
      }
      if ('memory_mb' in resources) {
        const value = resources.memory_mb;
        delete resources.memory_mb;
        resources.mem = typeof value === 'number' && Number.isInteger(value) ? formatMemory(value * 2 ** 20) : value;
        changes.push(`resources.memory_mb = ${String(value)} → resources.mem = ${JSON.stringify(resources.mem)}`);
      }
      table.resources = resources;
    }
    if ('ui_hints' in table) {
      const hints = table.ui_hints;
      delete table.ui_hints;
      const ui: Table = typeof table.ui === 'object' && table.ui !== null ? { ...(table.ui as Table) } : {};
      ui.hints ??= hints;
      table.ui = ui;
      changes.push('ui_hints → ui.hints');
    }
    if (!('oauth_scopes' in table)) {
      table.oauth_scopes = [];
      changes.push('added oauth_scopes = [] (required from 0.1 on)');
    }
    table.schema_version = '0.1';
    changes.push('schema_version "0.0" → "0.1"');
    return { table, changes };
  },
};
