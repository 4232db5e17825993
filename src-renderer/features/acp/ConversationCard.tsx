import { Fragment, useMemo } from 'react';
import type { AcpConversation } from '../../../src-preload/contract';
import { TurnChangesBadge } from '../../ui/changes/TurnChangesBadge';
import { useFollowBottom } from '../../ui/useFollowBottom';
import { ConversationControls } from './ConversationControls';
import { ConversationHeader } from './ConversationHeader';
import { ConversationItemView } from './ConversationItemView';
import { PromptBox } from './PromptBox';
import { useConversationEntries } from './useConversationEntries';

/**
 * One ACP conversation: its header, everything stored of it (also after a restart, from the event log) and live
 * updates, then the controls and the prompt. `asking`: the agent has a consent card open in the session.
 */
export function ConversationCard({ conversation, asking }: { conversation: AcpConversation; asking: boolean }) {
  const { model, error } = useConversationEntries(conversation.id);
  const prompting = conversation.status === 'prompting';
  // The model is folded in place: its version is what says new content came.
  const follow = useFollowBottom<HTMLDivElement>(model.version);
  // The same elements while only the entries changed: a streaming reply redraws the card every frame, and React
  // skips an element it is given again.
  const header = useMemo(() => <ConversationHeader conversation={conversation} />, [conversation]);
  const controls = useMemo(
    () => (
      <>
        <ConversationControls conversation={conversation} />
        <PromptBox conversation={conversation} commands={model.commands} />
      </>
    ),
    [conversation, model.commands],
  );
  return (
    <article
      className="card acp-conversation"
      data-testid="acp-conversation"
      data-status={conversation.status}
      data-conversation-id={conversation.id}
      aria-label={`${conversation.agentName} conversation`}
    >
      {header}
      {asking && (
        <p className="acp-waiting" role="status" data-testid="acp-waiting-consent">
          {conversation.agentName} is waiting for your answer on a consent card.
        </p>
      )}
      <div
        ref={follow.ref}
        className="acp-items"
        data-scroll-root=""
        role="log"
        aria-label="Conversation"
        tabIndex={0}
        onScroll={follow.onScroll}
      >
        {model.items.map((item, i) => (
          <Fragment key={item.key}>
            <ConversationItemView item={item} asking={asking} live={prompting && i === model.items.length - 1} />
            {/* A prompt's key is its entry's seq: the turn it started is found by it. */}
            {item.kind === 'prompt' && <TurnChangesBadge sessionId={conversation.sessionId} kind="conversation" sourceId={conversation.id} seq={Number(item.key)} />}
          </Fragment>
        ))}
        {prompting && (
          <small className="muted acp-line" aria-live="polite">
            {conversation.agentName} is working…
          </small>
        )}
        <div ref={follow.anchor} className="follow-anchor" aria-hidden="true" />
      </div>
      {error && (
        <p className="item-error" role="alert">
          The conversation cannot be followed: {error}
        </p>
      )}
      {controls}
    </article>
  );
}
