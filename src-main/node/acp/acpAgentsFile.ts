import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { AcpAgentEntry } from './acpAgentEntry';

/** The user's own ACP agents: `<home>/acp-agents.json`. */
export const ACP_AGENTS_FILE = 'acp-agents.json';
export const ACP_AGENTS_SCHEMA_VERSION = 1;

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const UserAgent = z.strictObject({
  id: z.string().regex(ID, 'an id of 1 to 64 lowercase letters, digits, "-" or "_", starting with a letter or digit (e.g. "my-agent")'),
  name: z.string().min(1, 'a name to show, e.g. "My agent"').max(200).optional(),
  command: z.string().min(1, 'the program to run: an absolute path or a name on PATH'),
  args: z.array(z.string()).max(200).default([]),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'environment variable names are letters, digits and "_"'), z.string()).default({}),
});

const AgentsFile = z.strictObject({
  schema_version: z.literal(ACP_AGENTS_SCHEMA_VERSION, { error: `schema_version must be ${ACP_AGENTS_SCHEMA_VERSION}` }),
  agents: z.array(UserAgent).max(100),
});

/** What reading the file gave: its agents (empty when absent or bad) and, for a bad file, what is wrong and how to fix it. */
export interface AcpAgentsFileResult {
  agents: AcpAgentEntry[];
  problems: string[];
}

/**
 * Reads `<home>/acp-agents.json`. A missing file is no agents; an unreadable or invalid one is no agents and its
 * problems, each naming the field, what was expected and how to fix it. The file itself is never changed, so a bad
 * edit loses nothing, and the built-ins work regardless.
 */
export function readAcpAgentsFile(home: string): AcpAgentsFileResult {
  const path = join(home, ACP_AGENTS_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { agents: [], problems: [] };
    return { agents: [], problems: [`${path} could not be read (${(error as Error).message}); fix its permissions`] };
  }
  return parseAcpAgentsFile(text, path);
}

export function parseAcpAgentsFile(text: string, path: string): AcpAgentsFileResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { agents: [], problems: [`${path} is not valid JSON (${(error as Error).message}); fix the syntax, e.g. {"schema_version": 1, "agents": []}`] };
  }
  const parsed = AgentsFile.safeParse(json);
  if (!parsed.success) {
    return {
      agents: [],
      problems: parsed.error.issues.map((issue) => {
        const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(the whole file)';
        return `${path}: ${field}: ${issue.message}; fix that field (the file's agents are ignored until it is valid)`;
      }),
    };
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  const agents: AcpAgentEntry[] = [];
  parsed.data.agents.forEach((agent, index) => {
    if (seen.has(agent.id)) {
      problems.push(`${path}: agents.${index}.id: "${agent.id}" is used twice; give each agent its own id`);
      return;
    }
    seen.add(agent.id);
    agents.push({ id: agent.id, name: agent.name ?? agent.id, command: agent.command, args: agent.args, env: agent.env, source: 'user' });
  });
  return { agents, problems };
}
