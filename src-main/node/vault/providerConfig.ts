import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ProviderRegistry } from './providers';

/**
 * The OAuth clients this installation is registered as, in `<home>/oauth-providers.json`. OAuth providers cannot be
 * connected until the app knows its client id with them (GitHub and Google ship without one; a company's OIDC
 * server is added by issuer). Only public-client settings belong here: a client id is not a secret, and a native
 * app's "client secret" protects nothing (RFC 8252 §8.5), so none is read from this file.
 *
 * {
 *   "clients": { "github": { "clientId": "Iv1.…" } },
 *   "oidc": [{ "id": "acme", "name": "Acme SSO", "issuer": "https://sso.acme.test", "clientId": "omni",
 *              "apiDomains": ["api.acme.test"], "flows": ["device", "pkce"] }]
 * }
 */
export const PROVIDER_CONFIG_FILE = 'oauth-providers.json';

const ProviderConfig = z.strictObject({
  clients: z.record(z.string(), z.strictObject({ clientId: z.string().min(1, 'clientId is empty') })).optional(),
  oidc: z
    .array(
      z.strictObject({
        id: z.string(),
        name: z.string().min(1, 'name is empty'),
        issuer: z.string(),
        clientId: z.string().min(1, 'clientId is empty'),
        apiDomains: z.array(z.string().min(1)).min(1, 'name at least one API domain: the token is sent nowhere else'),
        apiBaseUrl: z.string().nullable().optional(),
        flows: z.array(z.enum(['device', 'pkce'])).min(1).optional(),
        extraScopes: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});

/**
 * Applies `<home>/oauth-providers.json` to the registry. A missing file is normal (API keys need none); a broken file
 * or entry is reported through `onProblem` with what to fix, and the rest still applies.
 */
export function applyProviderConfig(home: string, registry: ProviderRegistry, onProblem: (message: string) => void): void {
  const file = join(home, PROVIDER_CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onProblem(`${file} could not be read: ${(error as Error).message}`);
    return;
  }
  let parsed: z.infer<typeof ProviderConfig>;
  try {
    const result = ProviderConfig.safeParse(JSON.parse(text));
    if (!result.success) {
      onProblem(`${file} is not a valid provider configuration: ${result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
      return;
    }
    parsed = result.data;
  } catch (error) {
    onProblem(`${file} is not JSON: ${(error as Error).message}`);
    return;
  }
  for (const [id, client] of Object.entries(parsed.clients ?? {})) {
    try {
      registry.configureClient(id, { clientId: client.clientId });
    } catch (error) {
      onProblem(`${file}: clients.${id}: ${(error as Error).message}`);
    }
  }
  for (const entry of parsed.oidc ?? []) {
    try {
      registry.addOidc(entry);
    } catch (error) {
      onProblem(`${file}: oidc "${entry.id}": ${(error as Error).message}`);
    }
  }
}
