import { acpContract } from '../../../src-preload/contract/acp';
import { liveListHandler, type Handlers } from '../../../src-preload/rpc';
import type { AcpService } from './acpService';

/** The `acp.*` calls and streams, as the person at the UI uses them. */
export function createAcpHandlers(acp: AcpService, actor: string): Handlers<typeof acpContract> {
  return {
    'acp.agents': () => acp.agents(),
    'acp.install': ({ agentId }, sink) => acp.install(agentId, sink),
    'acp.start': ({ sessionId, agent }) => acp.start(sessionId, agent, actor),
    'acp.prompt': ({ conversationId, text }) => acp.prompt(conversationId, text, actor),
    'acp.cancel': async ({ conversationId }) => {
      await acp.cancel(conversationId, actor);
      return {};
    },
    'acp.resume': ({ conversationId }) => acp.resume(conversationId, actor),
    'acp.setMode': ({ conversationId, modeId }) => acp.setMode(conversationId, modeId),
    'acp.setModel': ({ conversationId, model }) => acp.setModel(conversationId, model),
    'acp.stop': ({ conversationId }) => acp.stop(conversationId, actor),
    'acp.watch': liveListHandler(acpContract['acp.watch'], {
      list: ({ sessionId }) => acp.list(sessionId),
      onDidChange: ({ sessionId }, emit) =>
        acp.onDidChange((conversation) => {
          if (conversation.sessionId === sessionId) emit({ kind: 'upsert', item: conversation });
        }),
    }),
    'acp.updates': ({ conversationId, sinceSeq }, sink) => acp.attachUpdates(conversationId, sinceSeq ?? 0, sink),
  };
}
