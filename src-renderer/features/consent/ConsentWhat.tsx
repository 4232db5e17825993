import type { ConsentPrompt } from '../../../src-preload/contract';
import { commandWords, scopeSentence } from './consentWords';
import { WritePreview } from './WritePreview';

/**
 * What the agent would do and what an Allow gives, in plain words: a command as `$ node -e "…"` with the full folder
 * it runs in, a write as a diff, a scope as a sentence. The raw action stays in a tooltip for the exact string.
 */
export function ConsentWhat({ prompt, workspace }: { prompt: ConsentPrompt; workspace: string | null }) {
  const command = prompt.capability === 'process.exec' && prompt.action ? commandWords(prompt.action, workspace) : null;
  return (
    <dl className="consent-fields">
      {prompt.target && !command && (
        <>
          <dt>Target</dt>
          <dd>
            <code data-testid="consent-target">{prompt.target}</code>
          </dd>
        </>
      )}
      {command && (
        <>
          <dt>Command</dt>
          <dd>
            <pre className="consent-action consent-command" data-testid="consent-command" title={prompt.action ?? undefined}>
              $ {command.line}
            </pre>
            {command.folder && (
              <span className="consent-folder">
                in <code data-testid="consent-folder">{command.folder}</code>
                {command.pty && ' (in a terminal)'}
              </span>
            )}
          </dd>
        </>
      )}
      {prompt.action && !command && (
        <>
          <dt>Exact action</dt>
          <dd>
            <pre className="consent-action" data-testid="consent-action">
              {prompt.action}
            </pre>
          </dd>
        </>
      )}
      {prompt.write && (
        <>
          <dt>Would write</dt>
          <dd>
            <WritePreview write={prompt.write} />
          </dd>
        </>
      )}
      <dt>Allow gives</dt>
      <dd data-testid="consent-scope">
        {prompt.sensitive && prompt.action ? (command ? 'only this command, in this folder' : 'only the exact action above') : scopeSentence(prompt.capability, prompt.scope, workspace)}
      </dd>
    </dl>
  );
}
