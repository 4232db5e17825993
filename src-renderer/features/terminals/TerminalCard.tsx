import './terminalCard.css';
import { useEffect, useRef, useState } from 'react';
import type { Terminal } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { closeTerminal } from './terminalActions';
import { TerminalController } from './terminalController';
import { TerminalSearch } from '../../ui/screen/TerminalSearch';
import { useTerminals } from './terminalsStore';

/**
 * A terminal card. The xterm is created once per card and survives view switches (the card is hidden, never
 * unmounted) and reconnects (the controller re-attaches to each new client and replays the scrollback).
 */
export function TerminalCard({ terminal }: { terminal: Terminal }) {
  const client = useConnection((s) => s.client);
  const screenRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [controller, setController] = useState<TerminalController | null>(null);
  const [exitCode, setExitCode] = useState<number | null | undefined>(terminal.status === 'exited' ? terminal.exitCode : undefined);
  const [error, setError] = useState<string | null>(null);
  const label = `terminal ${terminal.title} in ${terminal.cwd}`;

  useEffect(() => {
    const created = new TerminalController(terminal.id, screenRef.current!, {
      onExit: (code) => setExitCode(code),
      onFindRequested: () => searchRef.current?.focus(),
    });
    setController(created);
    return () => created.dispose();
  }, [terminal.id]);

  useEffect(() => {
    controller?.attach(client);
  }, [controller, client]);

  const focusRequested = useTerminals((s) => s.focusRequest === terminal.id);
  useEffect(() => {
    if (!controller || !focusRequested) return;
    controller.focus();
    useTerminals.getState().requestFocus(null);
  }, [controller, focusRequested]);

  async function close(): Promise<void> {
    if (!client) return;
    try {
      await closeTerminal(client, terminal.id);
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  const exited = exitCode !== undefined;
  return (
    <article className="card terminal-card" data-testid="terminal-card" data-terminal-id={terminal.id} aria-label={label}>
      <header className="card-header">
        <span className="card-title" title={terminal.cwd}>
          <strong>{terminal.title}</strong> <span className="muted">{terminal.cwd}</span>
        </span>
        {exited && (
          <span className="badge" data-testid="terminal-exited">
            exited{exitCode !== null ? ` (${exitCode})` : ''}
          </span>
        )}
        <span className="card-tools">
          <TerminalSearch inputRef={searchRef} controller={controller} label={label} />
          <button type="button" className="icon-button" aria-label={`Close ${label}`} title="Close terminal (kills its processes)" disabled={!client} onClick={() => void close()}>
            ✕
          </button>
        </span>
      </header>
      {error && (
        <small className="item-error" role="alert">
          {error}
        </small>
      )}
      <div className="terminal-screen" ref={screenRef} onClick={() => controller?.focus()} />
    </article>
  );
}
