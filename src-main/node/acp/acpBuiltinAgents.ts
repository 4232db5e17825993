import type { AcpAgentEntry } from './acpAgentEntry';

/**
 * The agents the host knows without configuration. Claude Code and Codex speak ACP through Zed's adapters; Gemini CLI
 * speaks it itself when started with `--acp` (0.61.0 still takes the older `--experimental-acp`, marked deprecated).
 * All three are npm packages, pinned: installed in-app into `<home>/acp-agents`, never app dependencies; a program of
 * that name on PATH serves when none is installed.
 */
export const BUILTIN_ACP_AGENTS: readonly AcpAgentEntry[] = Object.freeze([
  {
    id: 'claude',
    name: 'Claude Code',
    command: 'claude-agent-acp',
    args: [],
    env: {},
    source: 'builtin',
    install: { package: '@zed-industries/claude-agent-acp', version: '0.23.1', bin: 'claude-agent-acp' },
  },
  {
    id: 'codex',
    name: 'Codex',
    command: 'codex-acp',
    args: [],
    env: {},
    source: 'builtin',
    install: { package: '@zed-industries/codex-acp', version: '0.16.0', bin: 'codex-acp' },
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    command: 'gemini',
    args: ['--acp'],
    env: {},
    source: 'builtin',
    install: { package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  },
]);
