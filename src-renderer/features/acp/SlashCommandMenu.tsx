import type { SlashCommand } from './conversationModel';

/** The agent's slash commands matching what is typed after `/`; picking one puts it in the prompt. */
export function SlashCommandMenu({ commands, typed, onPick }: { commands: SlashCommand[]; typed: string; onPick(command: SlashCommand): void }) {
  const matching = commands.filter((command) => command.name.startsWith(typed));
  if (matching.length === 0) return <small className="muted acp-commands-none">{commands.length === 0 ? 'This agent offers no slash commands.' : `No command starts with /${typed}.`}</small>;
  return (
    <ul className="acp-commands" role="listbox" aria-label="Slash commands" data-testid="acp-commands">
      {matching.map((command) => (
        <li key={command.name} role="option" aria-selected={false}>
          <button type="button" className="link-button" data-testid="acp-command" onClick={() => onPick(command)}>
            /{command.name}
          </button>{' '}
          <small className="muted">
            {command.description}
            {command.hint ? ` (${command.hint})` : ''}
          </small>
        </li>
      ))}
    </ul>
  );
}
