import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { AcpAgentEntry } from './acpAgentEntry';
import { readAcpAgentsFile } from './acpAgentsFile';
import { BUILTIN_ACP_AGENTS } from './acpBuiltinAgents';
import { AcpError } from './acpError';

/** Where in-app installs go: `<home>/acp-agents` (an npm prefix of its own). */
export const ACP_AGENTS_DIR = 'acp-agents';

export interface AcpAgentListing {
  entry: AcpAgentEntry;
  /** The program that would run (absolute), or null when it is not installed / not on PATH. */
  resolvedCommand: string | null;
  /** A built-in with an install recipe that is not installed yet. */
  installable: boolean;
}

export interface AcpAgentRegistryOptions {
  home: string;
  /** Extra folders searched for adapters' programs before PATH (tests: .cache/acp-agents/node_modules/.bin). */
  binDirs?: string[];
  /** PATH to search; default: process.env.PATH. */
  path?: string;
}

/**
 * The agents the host can start: the built-ins (acpBuiltinAgents.ts) and the user's (`<home>/acp-agents.json`, read
 * at every listing so an edit shows without a restart). A user entry with a built-in's id replaces it.
 */
export class AcpAgentRegistry {
  constructor(private readonly options: AcpAgentRegistryOptions) {}

  /** The agents and the user file's problems (the UI shows them next to the list). */
  list(): { agents: AcpAgentListing[]; problems: string[] } {
    const user = readAcpAgentsFile(this.options.home);
    const byId = new Map<string, AcpAgentEntry>();
    for (const entry of BUILTIN_ACP_AGENTS) byId.set(entry.id, entry);
    for (const entry of user.agents) byId.set(entry.id, entry);
    const agents = [...byId.values()].map((entry) => {
      const resolvedCommand = this.resolve(entry);
      return { entry, resolvedCommand, installable: entry.install !== undefined && resolvedCommand === null };
    });
    return { agents, problems: user.problems };
  }

  get(id: string): AcpAgentEntry {
    const found = this.list().agents.find((a) => a.entry.id === id);
    if (!found) {
      const known = this.list().agents.map((a) => a.entry.id).join(', ');
      throw new AcpError('ACP_UNKNOWN_AGENT', `there is no ACP agent "${id}" (known: ${known}); add it to acp-agents.json in the home folder`);
    }
    return found.entry;
  }

  /**
   * The entry with its command made absolute: the in-app install folder, then binDirs, then PATH. ACP_AGENT_MISSING
   * (saying how to install it) when it is nowhere.
   */
  resolved(id: string): AcpAgentEntry {
    const entry = this.get(id);
    const command = this.resolve(entry);
    if (command === null) {
      const how = entry.install
        ? `install it from the agents list (it fetches ${entry.install.package}@${entry.install.version})`
        : `install it so that "${entry.command}" is on PATH, or give its absolute path in acp-agents.json`;
      throw new AcpError('ACP_AGENT_MISSING', `the ${entry.name} agent's program "${entry.command}" was not found; ${how}`);
    }
    return { ...entry, command };
  }

  /** The folders searched before PATH. */
  binDirs(): string[] {
    return [join(this.options.home, ACP_AGENTS_DIR, 'node_modules', '.bin'), ...(this.options.binDirs ?? [])];
  }

  private resolve(entry: AcpAgentEntry): string | null {
    if (isAbsolute(entry.command)) return existsSync(entry.command) ? entry.command : null;
    if (entry.command.includes('/')) return null;
    const pathDirs = (this.options.path ?? process.env.PATH ?? '').split(':').filter((d) => d !== '');
    for (const dir of [...this.binDirs(), ...pathDirs]) {
      const candidate = join(dir, entry.command);
      if (existsSync(candidate)) return candidate;
    }
    return null;
  }
}
