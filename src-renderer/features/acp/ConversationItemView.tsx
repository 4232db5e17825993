import { memo } from 'react';
import type { ConversationItem } from './conversationModel';
import { MessageBlock } from './MessageBlock';
import { PlanChecklist } from './PlanChecklist';
import { ToolCallCard } from './ToolCallCard';

const turnWords: Record<string, string> = {
  end_turn: 'Turn ended',
  cancelled: 'Turn cancelled',
  max_tokens: 'Turn ended: token limit reached',
  max_turn_requests: 'Turn ended: request limit reached',
  refusal: 'The agent refused',
};

/**
 * One item of a conversation. Memoised: an item that changes is a new object (conversationModel.ts), so while a
 * reply streams only its message redraws. `live`: the item is the newest of a turn still running (a reply that may
 * still grow).
 */
export const ConversationItemView = memo(function ConversationItemView({ item, asking, live = false }: { item: ConversationItem; asking: boolean; live?: boolean }) {
  switch (item.kind) {
    case 'prompt':
      return (
        <div className="acp-prompt-item" data-testid="acp-user-prompt">
          <span className="visually-hidden">You: </span>
          {item.text}
        </div>
      );
    case 'message':
      return <MessageBlock markdown={item.markdown} role={item.role} live={live} />;
    case 'thought':
      return (
        <details className="acp-thought" data-testid="acp-thought">
          <summary>Thinking</summary>
          <p>{item.text}</p>
        </details>
      );
    case 'tool':
      return <ToolCallCard call={item.call} asking={asking} />;
    case 'plan':
      return <PlanChecklist entries={item.entries} />;
    case 'turn':
      return (
        <small className="muted acp-line" data-testid="acp-turn" data-stop-reason={item.stopReason}>
          {turnWords[item.stopReason] ?? `Turn ended (${item.stopReason})`}
        </small>
      );
    case 'error':
      return (
        <p className="item-error acp-line" role="alert" data-testid="acp-error" data-code={item.code}>
          <code>{item.code}</code> {item.message}
        </p>
      );
    case 'notice':
      return (
        <small className="muted acp-line" data-testid="acp-notice">
          {item.text}
        </small>
      );
    case 'other':
      return (
        <small className="muted acp-line" data-testid="acp-other">
          {item.label}
          {item.summary ? `: ${item.summary}` : ''}
        </small>
      );
  }
});
