import { useMemo, useState } from 'react';
import { summarizeDiff } from '../../ui/diff/diffLines';
import { DiffView } from '../../ui/diff/DiffView';
import { unifiedDiff } from '../../ui/diff/textDiff';
import { RunOutputView } from '../../ui/runOutput/RunOutputView';
import type { ToolCall, ToolCallContent, ToolCallLocation } from './conversationModel';

function EditDiff({ path, oldText, newText }: { path: string; oldText: string | null; newText: string }) {
  const lines = useMemo(() => unifiedDiff(path, oldText, newText), [path, oldText, newText]);
  const summary = useMemo(() => summarizeDiff(lines), [lines]);
  return <DiffView count={lines.length} line={(i) => lines[i]} summary={summary} />;
}

function Content({ item }: { item: ToolCallContent }) {
  switch (item.type) {
    case 'diff':
      return <EditDiff path={item.path} oldText={item.oldText} newText={item.newText} />;
    case 'text':
      return <pre className="acp-tool-text">{item.text}</pre>;
    case 'terminal':
      // The agent's terminal is a run of the shell tool (its id is the run's): its output, live, as the Runs panel
      // shows it, where the run also has Kill and its events.
      return (
        <div data-testid="acp-tool-terminal">
          <RunOutputView runId={item.terminalId} pty={false} label={`Output of the agent's command (run ${item.terminalId})`} />
          <small className="muted">Run {item.terminalId} in the Runs panel.</small>
        </div>
      );
    case 'other':
      return <small className="muted">{item.summary}</small>;
  }
}

/**
 * A file the tool call touches. The app has no file viewer to open it in, so a click copies its path (the button
 * says so when it did).
 */
function LocationButton({ location }: { location: ToolCallLocation }) {
  const [copied, setCopied] = useState(false);
  const text = location.line === null ? location.path : `${location.path}:${location.line}`;
  return (
    <button
      type="button"
      className="link-button"
      data-testid="acp-tool-location"
      title="Copy the path"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {text}
      {copied && <small className="muted"> (copied)</small>}
    </button>
  );
}

/** One tool call of the agent, as its updates have left it: title, kind, status, files, diffs, output. */
export function ToolCallCard({ call, asking }: { call: ToolCall; asking: boolean }) {
  return (
    <article className={`acp-tool-call acp-tool-${call.status}`} data-testid="acp-tool-call" data-status={call.status} data-tool-call-id={call.id} aria-label={`Tool call: ${call.title || call.kind}`}>
      <header className="acp-tool-head">
        <span className="badge">{call.kind}</span>
        <strong className="acp-tool-title">{call.title || call.id}</strong>
        <span className={`badge acp-tool-status acp-tool-status-${call.status}`} data-testid="acp-tool-status">
          {call.status.replace('_', ' ')}
        </span>
      </header>
      {asking && call.status === 'pending' && <small className="acp-waiting">Waiting for your answer on the consent card.</small>}
      {call.locations.length > 0 && (
        <div className="acp-tool-locations">
          {call.locations.map((location, i) => (
            <LocationButton key={i} location={location} />
          ))}
        </div>
      )}
      {call.content.map((item, i) => (
        <Content key={i} item={item} />
      ))}
    </article>
  );
}
