import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Session, Terminal } from '../../src-preload/contract';
import { useConnection } from '../bridge/connectionStore';
import { AcpPanel } from '../features/acp/AcpPanel';
import { ChangesPanel } from '../features/changes/ChangesPanel';
import { SessionAgents } from '../features/agents/SessionAgents';
import { ConsentCards } from '../features/consent/ConsentCards';
import { useConsent } from '../features/consent/consentStore';
import { GrantsPanel } from '../features/consent/GrantsPanel';
import { useGoal } from '../features/goal/goalStore';
import { SessionGoal } from '../features/goal/SessionGoal';
import { HarnessPanel } from '../features/harness/HarnessPanel';
import { SessionRuns } from '../features/runs/SessionRuns';
import { openTerminal } from '../features/terminals/terminalActions';
import { TerminalCard } from '../features/terminals/TerminalCard';
import { useTerminals } from '../features/terminals/terminalsStore';
import { useSessionTerminals } from '../features/terminals/useSessionTerminals';
import { Dock, type DockTab } from '../features/workspace/Dock';
import { LIMITS, RUNS_TAB } from '../features/workspace/layoutPrefs';
import { useWorkspaceLayout } from '../features/workspace/layoutStore';
import { SidePanel } from '../features/workspace/SidePanel';
import { Splitter } from '../features/workspace/Splitter';
import { useSidePanelsShortcut } from '../features/workspace/useSidePanelsShortcut';
import { WorktreeBar } from '../features/worktrees/WorktreeBar';
import { errorMessage } from '../ui/errorMessage';
import { useRememberedPanels } from './useRememberedPanels';

/** A terminal another feature started (a CLI session of the harness) joins the session's terminals, focused. */
function showTerminal(terminal: Terminal): void {
  useTerminals.getState().add(terminal);
  useTerminals.getState().requestFocus(terminal.id);
}

/**
 * One session's page, in panes: the conversation (consent prompts, agents, ACP conversations, CLI sessions) in the
 * main column; goal, changes and grants in a foldable side column; terminals and runs in a resizable dock below,
 * one tab each, splittable. Sizes and folds are remembered per workspace. It composes several features, so it lives
 * in app/: a feature never imports another, and what one needs of another is passed in from here.
 * Stays mounted (hidden) while another session or the ledger is shown.
 */
export function SessionView({ session, hidden }: { session: Session; hidden: boolean }) {
  const client = useConnection((s) => s.client);
  // Prompts carry the agent, not the run: any open prompt of an agent in the session is what its live run waits on.
  const askingAgents = useConsent(useShallow((s) => (s.prompts[session.id] ?? []).map((p) => p.agentId)));
  const terminals = useSessionTerminals(session.id);
  const [error, setError] = useState<string | null>(null);
  const closed = session.status === 'closed';
  const [layout, update] = useWorkspaceLayout(session.workspace);
  const workspaceRef = useRef<HTMLDivElement>(null);
  const upperRef = useRef<HTMLDivElement>(null);
  useRememberedPanels(session.id, layout, update);
  useSidePanelsShortcut(!hidden, () => update((current) => ({ sideCollapsed: !current.sideCollapsed })));

  // A folded side column still shows when the Goal panel is asked for (Ctrl+Shift+G) or a checkpoint question waits.
  const goalAsked = useGoal((s) => s.focusRequest === session.id || (s.checkpoints[session.id]?.length ?? 0) > 0);
  const sideShown = !layout.sideCollapsed || goalAsked;

  // A terminal just opened (or asked for by a CLI session) comes to the front of the dock.
  const focusRequest = useTerminals((s) => s.focusRequest);
  const forcedTab = terminals.some((t) => t.id === focusRequest) ? focusRequest : null;
  useEffect(() => {
    if (forcedTab && forcedTab !== layout.activeTab && forcedTab !== layout.splitTab) update({ activeTab: forcedTab });
  }, [forcedTab, layout.activeTab, layout.splitTab, update]);

  async function newTerminal(): Promise<void> {
    if (!client) return;
    setError(null);
    try {
      await openTerminal(client, session.id);
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  const idPrefix = `session-${session.id}`;
  const tabs: DockTab[] = [
    ...terminals.map((terminal, index) => ({
      id: terminal.id,
      label: `${index + 1} · ${terminal.title}`,
      title: `${terminal.title} in ${terminal.cwd}`,
      content: <TerminalCard terminal={terminal} />,
    })),
    { id: RUNS_TAB, label: 'Runs', title: 'Process runs of this session', content: <SessionRuns session={session} /> },
  ];

  return (
    <section className="session-view" hidden={hidden} aria-label={`Session ${session.name}`} data-testid="session-view" data-session-id={session.id}>
      <header className="session-header">
        <div className="session-heading">
          <h2 data-testid="session-title">{session.name}</h2>
          <p className="muted workspace-path" title={session.workspace}>
            {session.workspace}
          </p>
        </div>
        <button
          type="button"
          className="secondary outline"
          data-testid="side-toggle"
          aria-expanded={sideShown}
          aria-controls={`${idPrefix}-side`}
          aria-keyshortcuts="Control+Shift+B"
          title="Show or hide the goal, changes and grants (Ctrl+Shift+B)"
          onClick={() => update({ sideCollapsed: sideShown })}
        >
          {sideShown ? 'Hide panels' : 'Show panels'}
        </button>
      </header>
      {error && (
        <p className="item-error" role="alert">
          {error}
        </p>
      )}
      {closed && <p className="notice">This session is closed. Reopen it from the sidebar to start terminals again.</p>}
      {session.worktree && <WorktreeBar session={{ ...session, worktree: session.worktree }} />}
      <div className="workspace" ref={workspaceRef}>
        <div className="workspace-upper" ref={upperRef}>
          {/* Focusable so the conversation scrolls from the keyboard even when nothing in it takes focus (the host gone). */}
          <div className="workspace-main" data-testid="workspace-main" role="region" aria-label="Conversation" tabIndex={0}>
            <SessionAgents
              session={session}
              prompts={<ConsentCards sessionId={session.id} open={session.status === 'open'} />}
              grants={null}
              askingAgents={askingAgents}
            />
            <AcpPanel session={session} askingAgents={askingAgents} />
            <HarnessPanel session={session} onTerminal={showTerminal} />
          </div>
          {sideShown && (
            <Splitter
              label="Width of the side panels"
              controls={`${idPrefix}-side`}
              edge="right"
              value={layout.sidePercent}
              min={LIMITS.sidePercent.min}
              max={LIMITS.sidePercent.max}
              containerRef={upperRef}
              onChange={(sidePercent) => update({ sidePercent })}
              testId="side-splitter"
            />
          )}
          <aside className="workspace-side" id={`${idPrefix}-side`} hidden={!sideShown} style={{ flexBasis: `${layout.sidePercent}%` }} aria-label="Goal, changes and grants" data-testid="workspace-side">
            <SessionGoal session={session} hidden={hidden} />
            <ChangesPanel session={session} />
            <SidePanel
              name="grants"
              bodyId={`${idPrefix}-grants`}
              title="Grants"
              collapsed={layout.collapsed.grants === true}
              onToggle={() => update((current) => ({ collapsed: { ...current.collapsed, grants: !current.collapsed.grants } }))}
            >
              <GrantsPanel sessionId={session.id} />
            </SidePanel>
          </aside>
        </div>
        <Splitter
          label="Height of the terminals and runs"
          controls={`${idPrefix}-dock`}
          edge="bottom"
          value={layout.dockPercent}
          min={LIMITS.dockPercent.min}
          max={LIMITS.dockPercent.max}
          containerRef={workspaceRef}
          onChange={(dockPercent) => update({ dockPercent })}
          testId="dock-splitter"
        />
        <div className="workspace-dock" id={`${idPrefix}-dock`} style={{ flexBasis: `${layout.dockPercent}%` }}>
          <Dock
            idPrefix={idPrefix}
            tabs={tabs}
            layout={layout}
            update={update}
            forcedTab={forcedTab}
            hint={
              terminals.length === 0 && !closed ? (
                <p className="muted dock-hint">No terminals open. New terminal (Ctrl+Shift+T) starts one.</p>
              ) : null
            }
            actions={
              <button
                type="button"
                data-testid="new-terminal"
                disabled={!client || closed}
                title="New terminal (Ctrl+Shift+T)"
                aria-keyshortcuts="Control+Shift+T"
                onClick={() => void newTerminal()}
              >
                New terminal
              </button>
            }
          />
        </div>
      </div>
    </section>
  );
}
