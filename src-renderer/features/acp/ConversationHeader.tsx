import type { AcpConversation } from '../../../src-preload/contract';

const statusWords: Record<AcpConversation['status'], string> = {
  starting: 'Starting',
  ready: 'Ready',
  prompting: 'Working',
  stopped: 'Stopped',
  failed: 'Failed',
};

function formatTokens(n: number): string {
  return n >= 1000 ? `${Math.round(n / 100) / 10}k` : String(n);
}

function Usage({ usage }: { usage: NonNullable<AcpConversation['usage']> }) {
  const cost = usage.cost ? new Intl.NumberFormat(undefined, { style: 'currency', currency: usage.cost.currency, maximumFractionDigits: 4 }).format(usage.cost.amount) : null;
  return (
    <small className="muted" data-testid="acp-usage" title={`${usage.used} of ${usage.size} context tokens used`}>
      {formatTokens(usage.used)}/{formatTokens(usage.size)} tokens{cost ? ` · ${cost}` : ''}
    </small>
  );
}

/** Who the agent is, what state it is in (a failure with its error code), whether it is sandboxed, and its usage. */
export function ConversationHeader({ conversation }: { conversation: AcpConversation }) {
  const { status } = conversation;
  return (
    <header className="acp-header">
      <strong className="acp-agent-name">{conversation.agentName}</strong>
      <span className={`badge acp-status acp-status-${status}`} data-testid="acp-status">
        {statusWords[status]}
      </span>
      {conversation.sandboxed ? (
        <span className="badge acp-sandboxed" data-testid="acp-sandboxed" title="The agent and everything it starts run in the native sandbox">
          sandboxed
        </span>
      ) : (
        <span className="badge acp-unsandboxed" data-testid="acp-unsandboxed" role="note" title="No native sandbox here: the agent runs with your user's rights">
          ⚠ runs without sandbox
        </span>
      )}
      {conversation.usage && <Usage usage={conversation.usage} />}
      {conversation.statusReason && (status === 'failed' || status === 'stopped') && (
        <p className={status === 'failed' ? 'item-error acp-status-reason' : 'muted acp-status-reason'} role={status === 'failed' ? 'alert' : undefined} data-testid="acp-status-reason">
          {conversation.errorCode && <code data-testid="acp-error-code">{conversation.errorCode}</code>} {conversation.statusReason}
        </p>
      )}
    </header>
  );
}
