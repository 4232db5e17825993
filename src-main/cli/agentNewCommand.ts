import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorsOf, formatIssue, MANIFEST_FILE, checkManifestBytes } from '../node/agents/manifest';
import { AGENT_SOURCE_ENTRY } from './agentBuildCommand';
import { agentProjectRoot } from './agentProjectRoot';
import { UsageError } from './args';

export const agentNewUsage = `  agent new DIR --name NAME
        Start an agent in DIR (new or empty) from the bundled workspace-summary agent: manifest.toml named NAME and
        ${AGENT_SOURCE_ENTRY}. Then edit it and \`omni agent build DIR\`.`;

/** The bundled agent new agents start from: small, and it shows consent, files and output cards. */
const TEMPLATE_AGENT = 'workspace-summary';

/** `omni agent new DIR --name NAME`. */
export function agentNewCommand(folder: string, name: string): number {
  if (existsSync(folder) && readdirSync(folder).length > 0) throw new UsageError(`${folder} is not empty; agent new starts an agent in a new or empty folder`);
  const template = join(agentProjectRoot(), 'agents', TEMPLATE_AGENT);
  const manifest = readFileSync(join(template, MANIFEST_FILE), 'utf8').replace(/^name = .*$/m, `name = ${JSON.stringify(name)}`);
  const created = !existsSync(folder);
  mkdirSync(join(folder, 'assembly'), { recursive: true });
  const report = checkManifestBytes(folder, Buffer.from(manifest), { entryToBeBuilt: true });
  if (!report.manifest) {
    if (created) rmSync(folder, { recursive: true, force: true });
    else rmSync(join(folder, 'assembly'), { recursive: true, force: true });
    throw new UsageError(`--name "${name}" does not make a valid manifest:\n${errorsOf(report).map(formatIssue).join('\n')}`);
  }
  writeFileSync(join(folder, MANIFEST_FILE), manifest);
  copyFileSync(join(template, AGENT_SOURCE_ENTRY), join(folder, AGENT_SOURCE_ENTRY));
  console.log(`new agent "${name}" in ${folder} (from the bundled ${TEMPLATE_AGENT}): ${MANIFEST_FILE}, ${AGENT_SOURCE_ENTRY}`);
  console.log(`next: edit them, then \`omni agent build ${folder}\` and \`omni agent run ${folder} --workspace DIR --prompt TEXT\``);
  return 0;
}
