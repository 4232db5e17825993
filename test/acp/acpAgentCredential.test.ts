// The credential an ACP agent gets: a grant of oauth:<provider>.api to acp:<agent> in the session, a handle under it,
// the credential proxy's variables (dummy key + base URL on 127.0.0.1), its bridge and the provider's API hosts;
// release() (the agent exited) or a revocation ends it. Real vault, consent engine and proxy; a map as keychain.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { acpAgentCredential, acpConsentAgentId } from '../../src-main/node/acp/acpAgentCredential';
import { BUILTIN_ACP_AGENTS } from '../../src-main/node/acp/acpBuiltinAgents';
import { CredentialServices } from '../../src-main/node/vault/credentialServices';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { memoryKeychain } from '../vault/memoryKeychain';
import { vaultFixture, type VaultFixture } from '../vault/vaultFixture';

const agent = (id: string) => BUILTIN_ACP_AGENTS.find((entry) => entry.id === id)!;
const request = (id: string) => ({ agent: agent(id), sessionId: 'ses_acpCredential01', workspace: '/tmp', env: {} });

let fixture: VaultFixture;
let services: CredentialServices;
before(async () => {
  fixture = await vaultFixture({ keychain: { keychain: memoryKeychain(), problem: null } });
  services = new CredentialServices({ db: fixture.db, ledger: fixture.ledger, keychain: { keychain: memoryKeychain(), problem: null }, secrets: new SecretRegistry(), consent: fixture.consent });
});
after(() => {
  services.dispose();
  fixture.close();
});

test('an agent without a serving provider (the user\'s own) gets none; Claude or Gemini without a connection is told to connect one', async () => {
  const own = { ...request('claude'), agent: { id: 'own', name: 'Own', command: 'own-agent', args: [], env: {}, source: 'user' as const } };
  assert.equal(await acpAgentCredential(services, fixture.consent, own, 'user'), null);
  await assert.rejects(acpAgentCredential(services, fixture.consent, request('claude'), 'user'), (error: unknown) => (error as { code?: string }).code === 'ACP_AGENT_MISSING' && /connect Anthropic/.test((error as Error).message));
  await assert.rejects(acpAgentCredential(services, fixture.consent, request('gemini'), 'user'), (error: unknown) => (error as { code?: string }).code === 'ACP_AGENT_MISSING' && /connect the Google Gemini API/.test((error as Error).message));
});

test('with a Gemini API connection: GOOGLE_GEMINI_BASE_URL + GEMINI_API_KEY from the proxy, generativelanguage.googleapis.com', async () => {
  const realKey = 'AIza-real-gemini-key-never-handed-out';
  await services.connections.addApiKey({ provider: 'gemini', apiKey: new Secret(realKey) });
  const credential = (await acpAgentCredential(services, fixture.consent, request('gemini'), 'user'))!;
  assert.match(credential.env.GEMINI_API_KEY, /^omni-proxy-/);
  assert.match(credential.env.GOOGLE_GEMINI_BASE_URL, /^http:\/\/127\.0\.0\.1:\d+\/gemini$/);
  assert.ok(!JSON.stringify(credential).includes(realKey));
  assert.deepEqual(credential.apiHosts, ['generativelanguage.googleapis.com']);
  credential.release();
});

test('with an Anthropic connection: dummy key + proxy URL, the bridge, api.anthropic.com; release ends grant and handle', async () => {
  const realKey = 'sk-ant-real-key-never-handed-out';
  await services.connections.addApiKey({ provider: 'anthropic', apiKey: new Secret(realKey) });
  const credential = (await acpAgentCredential(services, fixture.consent, request('claude'), 'user'))!;
  assert.match(credential.env.ANTHROPIC_API_KEY, /^omni-proxy-/);
  assert.match(credential.env.ANTHROPIC_BASE_URL, /^http:\/\/127\.0\.0\.1:\d+\/anthropic$/);
  assert.ok(!JSON.stringify(credential).includes(realKey));
  assert.deepEqual(credential.apiHosts, ['api.anthropic.com']);
  assert.ok(existsSync(credential.bridge.socketPath));
  assert.equal(credential.bridge.port, Number(new URL(credential.env.ANTHROPIC_BASE_URL).port));
  const handles = () => services.connections.handles.list().filter((h) => h.agentId === acpConsentAgentId('claude'));
  assert.equal(handles().length, 1);
  assert.equal(credential.stillGranted!(), true);
  credential.release();
  assert.equal(credential.stillGranted!(), false, 'the egress grant ends with it');
  assert.equal(handles().length, 0, 'the handle behind the dummy key ended');
  credential.release(); // idempotent
});
