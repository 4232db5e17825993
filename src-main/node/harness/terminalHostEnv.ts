/**
 * Variables that describe the terminal host the CLI runs under (tmux, screen, zellij, wezterm, kitty, ...). They
 * belong to the host that owns the PTY (spec §6.2: "agent-spaces must not set Ghostty/tmux environment
 * variables"): a stale TMUX in a harness's env makes the CLI think it is inside tmux and talk to the wrong server.
 */
const EXACT = new Set([
  'TMUX',
  'TMUX_PANE',
  'TMUX_TMPDIR',
  'STY',
  'WINDOW',
  'WEZTERM_PANE',
  'WEZTERM_UNIX_SOCKET',
  'WEZTERM_EXECUTABLE',
  'KITTY_WINDOW_ID',
  'KITTY_LISTEN_ON',
  'KITTY_PID',
  'TERM_PROGRAM',
  'TERM_PROGRAM_VERSION',
  'TERM_SESSION_ID',
  'ITERM_SESSION_ID',
  'VTE_VERSION',
  'WT_SESSION',
  'ALACRITTY_WINDOW_ID',
  'ALACRITTY_SOCKET',
]);
const PREFIXES = ['ZELLIJ', 'GHOSTTY_', 'WEZTERM_', 'KITTY_', 'BYOBU_'];

export function isTerminalHostVariable(name: string): boolean {
  return EXACT.has(name) || PREFIXES.some((prefix) => name.startsWith(prefix));
}
