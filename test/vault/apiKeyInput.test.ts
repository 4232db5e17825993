// What addApiKey refuses before anything is stored, each with an error that says what to give instead.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Secret } from '../../src-main/node/vault/secret';
import { CredentialRequestError } from '../../src-main/node/vault/vaultErrors';
import { vaultFixture } from './vaultFixture';

it('bad API key input is refused with a clear, typed error', async (t) => {
  // The checks come before the keychain is needed, so a fixture without one shows them.
  const fixture = await vaultFixture({ keychain: { keychain: null, problem: 'off for this test' } });
  t.after(() => fixture.close());
  const key = new Secret('sk-0123456789abcdef0123');
  const refused = async (input: Parameters<typeof fixture.connections.addApiKey>[0], message: RegExp) =>
    assert.rejects(fixture.connections.addApiKey(input), (error: unknown) => error instanceof CredentialRequestError && message.test(error.message));

  await refused({ provider: 'github', apiKey: key }, /connects through OAuth/);
  await refused({ provider: 'openai', apiKey: 'sk-plain-string' as unknown as Secret<string> }, /wrapped in a Secret/);
  await refused({ provider: 'openai', apiKey: new Secret('short') }, /does not look like an API key/);
  await refused({ provider: 'openai', apiKey: new Secret('sk-with space-0123456789') }, /no spaces/);
  await refused({ provider: 'anthropic', apiKey: key, baseUrl: 'https://proxy.example/v1' }, /fixed API address/);
  await refused({ provider: 'openai-compatible', apiKey: key }, /needs its base URL, e.g. http:\/\/127\.0\.0\.1:11434\/v1/);
  await refused({ provider: 'openai-compatible', apiKey: key, baseUrl: 'ollama' }, /is not a URL/);
  await refused({ provider: 'openai-compatible', apiKey: key, baseUrl: 'http://gpu-box.lan:11434/v1' }, /must use https:\/\/ \(plain http only on this machine/);
  await refused({ provider: 'openai-compatible', apiKey: key, baseUrl: 'https://user:pw@llm.example/v1' }, /must not carry a user, password/);
  assert.deepEqual(fixture.connections.list(), []);
});
