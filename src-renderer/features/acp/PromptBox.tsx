import { useRef, useState } from 'react';
import type { AcpConversation } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import type { SlashCommand } from './conversationModel';
import { MentionInput } from './MentionInput';
import { SlashCommandMenu } from './SlashCommandMenu';

/** `/name` typed at the start with no space yet: the slash-command menu shows what matches. */
const TYPING_COMMAND = /^\/(\S*)$/;

/**
 * The prompt: Enter sends, Shift+Enter is a new line; `@` asks for a file to mention (sent inline as `@path`), `/`
 * lists the agent's slash commands. Sends only while the agent is ready (one turn at a time).
 */
export function PromptBox({ conversation, commands }: { conversation: AcpConversation; commands: SlashCommand[] }) {
  const client = useConnection((s) => s.client);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Where the `@` that opened the mention input is, or null while it is closed.
  const [mentionAt, setMentionAt] = useState<number | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const ready = conversation.status === 'ready';
  const canSend = !!client && ready && text.trim() !== '';
  const command = TYPING_COMMAND.exec(text);

  function send(): void {
    if (!client || !canSend) return;
    const sent = text;
    setText('');
    setError(null);
    // The call answers when the turn ends; the reply streams into the card meanwhile.
    client.call('acp.prompt', { conversationId: conversation.id, text: sent }).catch((e: unknown) => {
      setError(errorMessage(e));
      setText((current) => current || sent);
    });
  }

  function mentioned(path: string | null): void {
    const at = mentionAt ?? text.length;
    setMentionAt(null);
    if (path !== null) {
      const next = `${text.slice(0, at)}@${path} ${text.slice(at + 1)}`;
      setText(next);
    }
    requestAnimationFrame(() => area.current?.focus());
  }

  function pick(picked: SlashCommand): void {
    setText(`/${picked.name} `);
    area.current?.focus();
  }

  return (
    <div className="acp-prompt-box">
      <textarea
        ref={area}
        rows={2}
        data-testid="acp-prompt"
        aria-label={`Prompt for ${conversation.agentName}`}
        placeholder={ready ? 'Ask the agent… (Enter sends, Shift+Enter new line, @ mentions a file, / for commands)' : 'The agent is not ready for a prompt'}
        value={text}
        onChange={(event) => {
          const value = event.target.value;
          const caret = event.target.selectionStart;
          // An `@` just typed at a word start asks for the file to mention.
          if (value.length === text.length + 1 && value[caret - 1] === '@' && (caret === 1 || /\s/.test(value[caret - 2]))) setMentionAt(caret - 1);
          setText(value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      {mentionAt !== null && <MentionInput onDone={mentioned} />}
      {command && <SlashCommandMenu commands={commands} typed={command[1]} onPick={pick} />}
      <div className="acp-prompt-actions">
        <button type="button" className="secondary" data-testid="acp-mention" disabled={mentionAt !== null} onClick={() => setMentionAt(text.length)} title="Mention a file (@)">
          @ File
        </button>
        <button type="button" data-testid="acp-send" disabled={!canSend} onClick={send}>
          Send
        </button>
      </div>
      {error && (
        <p className="item-error" role="alert" data-testid="acp-prompt-error">
          {error}
        </p>
      )}
    </div>
  );
}
