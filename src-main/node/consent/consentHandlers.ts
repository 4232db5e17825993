import { consentContract, type Contract } from '../../../src-preload/contract';
import { liveListHandler, type Handlers } from '../../../src-preload/rpc';
import type { ConsentEngine } from './consentEngine';
import { grantListChange, isListedGrant } from './grantList';
import type { UiConsentChannel } from './uiConsentChannel';

type ConsentHandlers = Pick<Handlers<Contract>, 'consent.prompts' | 'consent.answer' | 'consent.grants' | 'consent.watchGrants' | 'consent.revoke'>;

/** The consent calls and streams of the contract, on top of the engine and the UI's channel. */
export function createConsentHandlers(engine: ConsentEngine, channel: UiConsentChannel, actor: string): ConsentHandlers {
  return {
    'consent.prompts': ({ sessionId }, sink) => channel.watch(sessionId, (event) => sink.push(event)),
    'consent.answer': ({ promptId, answer }) => {
      // An unknown prompt or grant is a PromptNotFoundError / GrantNotFoundError: NOT_FOUND at the handler edge.
      channel.answer(promptId, answer);
      return {};
    },
    'consent.grants': ({ sessionId }) => engine.list(sessionId),
    'consent.watchGrants': liveListHandler(consentContract['consent.watchGrants'], {
      list: ({ sessionId }) => engine.list(sessionId).filter(isListedGrant),
      onDidChange: ({ sessionId }, emit) =>
        engine.onDidChangeGrant((change) => {
          if (sessionId === undefined || change.grant.sessionId === sessionId) emit(grantListChange(change));
        }),
    }),
    'consent.revoke': ({ grantId }) => {
      return engine.revoke(grantId, actor);
    },
  };
}
