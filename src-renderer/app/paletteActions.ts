import { useMemo } from 'react';
import type { AgentInfo } from '../../src-preload/contract';
import { useAgents } from '../features/agents/agentsStore';
import { launcherAgents } from '../features/agents/launcherAgents';
import { pickAgentForSession } from '../features/agents/pickAgent';
import { useExportOpener } from '../features/ledger/exportOpener';
import { verifyLedger } from '../features/ledger/verifyStore';
import type { PaletteAction } from '../features/palette/paletteAction';
import { NEW_SESSION_FOLDER_ID } from '../features/sessions/NewSessionForm';
import { openTerminalInSession, showView, toggleChangesPanel, toggleGoalPanel } from './workspaceActions';

/**
 * Every action the command palette offers, each calling the code its button or shortcut calls. `needs` says what
 * must be there for it to run (the palette shows the others disabled, with the reason). The launcher's agents each
 * get a "Run agent: …" entry of their own, so an agent is found by its name.
 */
export function paletteActions(agents: readonly AgentInfo[] | null): PaletteAction[] {
  const actions: PaletteAction[] = [
    {
      id: 'session.new',
      title: 'New session…',
      keywords: 'create workspace folder project open',
      needs: ['host'],
      run: () => document.getElementById(NEW_SESSION_FOLDER_ID)?.focus(),
    },
    {
      id: 'terminal.new',
      title: 'New terminal',
      keywords: 'shell console open',
      shortcut: 'Ctrl+Shift+T',
      needs: ['host', 'openSession'],
      run: async ({ client, session }) => {
        if (client && session) await openTerminalInSession(client, session.id);
      },
    },
    {
      id: 'agent.run',
      title: 'Run an agent…',
      keywords: 'start launch prompt',
      needs: ['host', 'openSession'],
      run: ({ session }) => {
        if (session) pickAgentForSession(session.id);
      },
    },
    ...launcherAgents(agents ?? []).map(
      (agent): PaletteAction => ({
        id: `agent.run.${agent.name}`,
        title: `Run agent: ${agent.name}`,
        keywords: agent.description ?? undefined,
        needs: ['host', 'openSession'],
        run: ({ session }) => {
          if (session) pickAgentForSession(session.id, agent.name);
        },
      }),
    ),
    {
      id: 'goal.toggle',
      title: 'Goal panel: show or fold',
      keywords: 'plan tasks orchestrator',
      shortcut: 'Ctrl+Shift+G',
      needs: ['session'],
      run: ({ session }) => {
        if (session) toggleGoalPanel(session.id);
      },
    },
    {
      id: 'changes.toggle',
      title: 'Changes panel: show or fold',
      keywords: 'diff review rewind timeline turns',
      shortcut: 'Ctrl+Shift+D',
      needs: ['session'],
      run: ({ session }) => {
        if (session) toggleChangesPanel(session.id);
      },
    },
    {
      id: 'view.session',
      title: 'Go to the session page',
      keywords: 'terminals runs conversation',
      needs: [],
      run: () => showView('session'),
    },
    {
      id: 'view.ledger',
      title: 'Open the ledger',
      keywords: 'audit log history',
      shortcut: 'Ctrl+Shift+L',
      needs: [],
      run: () => showView('ledger'),
    },
    {
      id: 'ledger.verify',
      title: 'Verify the ledger',
      keywords: 'audit check integrity chain signature',
      needs: ['host'],
      run: async ({ client }) => {
        showView('ledger');
        if (client) await verifyLedger(client);
      },
    },
    {
      id: 'ledger.export',
      title: 'Export the ledger…',
      keywords: 'audit save file redact',
      needs: ['host'],
      run: () => {
        showView('ledger');
        useExportOpener.getState().request();
      },
    },
    {
      id: 'view.agents',
      title: 'Open the agents list',
      keywords: 'installed manifests capabilities',
      needs: [],
      run: () => showView('agents'),
    },
    {
      id: 'view.connections',
      title: 'Open connections',
      keywords: 'credentials api keys oauth vault accounts',
      needs: [],
      run: () => showView('connections'),
    },
  ];
  return actions;
}

/** The palette's actions, renewed when the list of installed agents changes. */
export function usePaletteActions(): PaletteAction[] {
  const agents = useAgents((s) => s.agents);
  return useMemo(() => paletteActions(agents), [agents]);
}
