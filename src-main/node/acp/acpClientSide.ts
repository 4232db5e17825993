import type { RequestPermissionRequest, SessionNotification } from '@agentclientprotocol/sdk';
import type { AcpConversation, AcpEntry } from '../../../src-preload/contract/acp';
import type { ConsentEngine } from '../consent/consentEngine';
import type { Ledger } from '../ledger/ledger';
import type { WhenWatched } from './acpConsentAsk';
import type { AcpClientHandlers } from './acpConnection';
import { REPLAYED_KINDS, type Live } from './acpLiveConversation';
import { decideAcpPermission, type AcpPermissionContext } from './acpPermission';
import { stateChangeOf } from './acpSessionState';

/** What the client side of one live conversation reports back to the service that owns it. */
export interface AcpClientSideSink {
  consent: ConsentEngine;
  ledger: Ledger;
  whenWatched?: WhenWatched;
  /** A change to the conversation's record (its modes, model, title, …). */
  update(change: Partial<AcpConversation>): void;
  /** An entry for the conversation's log. */
  entry(type: AcpEntry['type'], data: unknown): void;
}

/**
 * The host's answers to what one conversation's agent asks (ACP's client side): its updates go to the log (not the
 * ones a load or a resume replays), permission asks go through consent, files and terminals through their gates.
 */
export function acpClientSide(live: Live, context: AcpPermissionContext, sink: AcpClientSideSink): AcpClientHandlers {
  return {
    onSessionUpdate: (notification: SessionNotification) => {
      const change = stateChangeOf(live.record, notification.update);
      if (change) sink.update(change);
      if (live.replay === 'load' || (live.replay === 'after' && REPLAYED_KINDS.has(notification.update.sessionUpdate))) return;
      sink.entry('update', notification.update);
    },
    onNotice: (text) => sink.entry('notice', { text }),
    requestPermission: async (params: RequestPermissionRequest, signal) => {
      // Its own controller, so a conversation that stops withdraws the ask even when the agent never cancels it.
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      live.pending.add(controller);
      try {
        const decided = await decideAcpPermission(sink.consent, sink.ledger, context, params, controller.signal, sink.whenWatched);
        if (decided.grantId) live.usedGrants.add(decided.grantId);
        if (decided.allowed && decided.capability === 'files.write' && decided.target !== undefined) live.files.approveWrite(decided.target);
        return decided.response;
      } finally {
        live.pending.delete(controller);
        signal.removeEventListener('abort', onAbort);
      }
    },
    readTextFile: (params, signal) => live.files.read(params, signal),
    writeTextFile: (params, signal) => live.files.write(params, signal),
    createTerminal: (params, signal) => live.terminals.create(params, signal),
    terminalOutput: (params) => live.terminals.output(params.terminalId),
    waitForTerminalExit: (params, signal) => live.terminals.waitForExit(params.terminalId, signal),
    killTerminal: (params) => live.terminals.kill(params.terminalId),
    releaseTerminal: (params) => live.terminals.release(params.terminalId),
  };
}
