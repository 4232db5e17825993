import { credentialContract, type ConnectionInfo, type Contract } from '../../../src-preload/contract';
import { DisposableStore, liveListHandler, type Handlers } from '../../../src-preload/rpc';
import type { Connection, ConnectionView } from './connections';
import type { CredentialServices } from './credentialServices';
import { Secret } from './secret';

type CredentialHandlers = Pick<
  Handlers<Contract>,
  | 'credentials.status'
  | 'credentials.providers'
  | 'credentials.list'
  | 'credentials.addApiKey'
  | 'credentials.startDeviceFlow'
  | 'credentials.startPkce'
  | 'credentials.cancelFlow'
  | 'credentials.refresh'
  | 'credentials.disconnect'
  | 'credentials.flowEvents'
  | 'credentials.keyHint'
  | 'credentials.rotateKey'
  | 'credentials.test'
  | 'credentials.oauthClients'
  | 'credentials.saveOAuthClient'
  | 'credentials.removeOAuthClient'
  | 'credentials.configureBuiltInClient'
  | 'credentials.watch'
>;

/**
 * The credentials calls and streams of the contract, on top of the host's Connections. The API key arrives as plain
 * text in the frame and is wrapped in a Secret before anything else touches it; no answer carries it back.
 */
export function createCredentialHandlers(
  services: CredentialServices,
  actor: string,
): CredentialHandlers {
  const { connections } = services;
  return {
    // Answers once the keychain has (the vault says "still opening" until then, which is no state to show a user).
    'credentials.status': async () => {
      await services.vault.ready;
      return connections.status();
    },
    'credentials.providers': () => connections.providers(),
    'credentials.list': ({ includeDisconnected }) => connections.list({ includeDisconnected }).map(toInfo),
    'credentials.addApiKey': ({ provider, apiKey, label, baseUrl }) =>
      typed(() => connections.addApiKey({ provider, apiKey: new Secret(apiKey), label, baseUrl }, actor)).then(withoutHandles),
    'credentials.startDeviceFlow': ({ provider, scopes, label }) => typed(() => connections.startDeviceFlow({ provider, scopes, label }, actor)),
    'credentials.startPkce': ({ provider, scopes, label }) => typed(() => connections.startPkce({ provider, scopes, label }, actor)),
    'credentials.cancelFlow': ({ flowId }) => ({ cancelled: connections.cancelFlow(flowId) }),
    'credentials.refresh': ({ connectionId }) => typed(() => connections.refresh(connectionId, actor)).then(withoutHandles),
    'credentials.disconnect': async ({ connectionId }) => {
      const result = await typed(() => connections.disconnect(connectionId, actor));
      return { ...result, connection: withoutHandles(result.connection) };
    },
    'credentials.keyHint': async ({ connectionId }) => ({ hint: await typed(() => connections.upkeep.keyHint(connectionId)) }),
    'credentials.rotateKey': ({ connectionId, apiKey }) => typed(() => connections.upkeep.rotateApiKey(connectionId, new Secret(apiKey), actor)).then(withoutHandles),
    'credentials.test': ({ connectionId }) => typed(() => connections.upkeep.check(connectionId, actor)),
    'credentials.oauthClients': () => services.oauthClients.list(),
    'credentials.saveOAuthClient': (request) => typed(() => services.oauthClients.save(request, actor)),
    'credentials.removeOAuthClient': async ({ id }) => ({ removed: await typed(() => services.oauthClients.remove(id, actor)) }),
    'credentials.configureBuiltInClient': (request) => typed(() => services.builtInClients.save(request, actor)),
    'credentials.flowEvents': (_key, sink) => connections.onDidProgressFlow((event) => sink.push(event)),
    'credentials.watch': liveListHandler(credentialContract['credentials.watch'], {
      list: ({ includeDisconnected }) => connections.list({ includeDisconnected }).map(toInfo),
      onDidChange: ({ includeDisconnected }, emit) => {
        // The connection as the list now shows it (handles included), or its removal once the list leaves it out.
        const changed = (connectionId: string): void => {
          const view = connections.list({ includeDisconnected }).find((c) => c.id === connectionId);
          emit(view ? { kind: 'upsert', item: toInfo(view) } : { kind: 'remove', id: connectionId });
        };
        const owner = new DisposableStore();
        owner.add(connections.onDidChange((connection) => changed(connection.id)));
        // An agent's handle beginning or ending changes who holds handles to the connection.
        owner.add(connections.handles.onDidIssue((record) => changed(record.connectionId)));
        owner.add(connections.handles.onDidInvalidate(({ record }) => changed(record.connectionId)));
        return owner;
      },
    }),
  };
}

/**
 * Runs `run` as a promise, so a synchronous refusal rejects it too. The backend's refusals are DomainErrors (their
 * messages say what to do and hold no secret); the handler edge gives them their codes.
 */
async function typed<T>(run: () => Promise<T>): Promise<T> {
  return run();
}

function withoutHandles(connection: Connection): Omit<ConnectionInfo, 'handles'> {
  const { id, provider, kind, label, scopes, baseUrl, status, statusReason, expiresAt, createdAt, updatedAt, refreshedAt } = connection;
  return { id, provider, kind, label, scopes, baseUrl, status, statusReason, expiresAt, createdAt, updatedAt, refreshedAt };
}

function toInfo(view: ConnectionView): ConnectionInfo {
  return {
    ...withoutHandles(view),
    handles: view.handles.map(({ handleId, agentId, sessionId, capability, issuedAt }) => ({ handleId, agentId, sessionId, capability, issuedAt })),
  };
}
