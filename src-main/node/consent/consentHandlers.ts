import { RpcError, type Contract } from '../../../src-preload/contract';
import type { Handlers } from '../../../src-preload/rpc';
import type { ConsentEngine } from './consentEngine';
import { GrantNotFoundError } from './consentErrors';
import { PromptNotFoundError, type UiConsentChannel } from './uiConsentChannel';

type ConsentHandlers = Pick<Handlers<Contract>, 'consent.prompts' | 'consent.answer' | 'consent.grants' | 'consent.grantChanges' | 'consent.revoke'>;

/** The consent calls and streams of the contract, on top of the engine and the UI's channel. */
export function createConsentHandlers(engine: ConsentEngine, channel: UiConsentChannel, actor: string): ConsentHandlers {
  const notFound = (error: unknown): never => {
    if (error instanceof GrantNotFoundError || error instanceof PromptNotFoundError) throw new RpcError('NOT_FOUND', error.message);
    throw error;
  };
  return {
    'consent.prompts': ({ sessionId }, sink) => channel.watch(sessionId, (event) => sink.push(event)),
    'consent.answer': ({ promptId, answer }) => {
      try {
        channel.answer(promptId, answer);
      } catch (error) {
        notFound(error);
      }
      return {};
    },
    'consent.grants': ({ sessionId }) => engine.list(sessionId),
    'consent.grantChanges': ({ sessionId }, sink) =>
      engine.onDidChangeGrant((change) => {
        if (sessionId === undefined || change.grant.sessionId === sessionId) sink.push(change);
      }),
    'consent.revoke': ({ grantId }) => {
      try {
        return engine.revoke(grantId, actor);
      } catch (error) {
        return notFound(error);
      }
    },
  };
}
