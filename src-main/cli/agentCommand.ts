import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import {
  checkManifestBytes,
  errorsOf,
  formatIssue,
  formatMemory,
  MANIFEST_FILE,
  migrateManifestFile,
  readManifest,
  warningsOf,
  type AgentManifest,
  type ManifestIssue,
  type ManifestReport,
} from '../node/agents/manifest';
import { buildCatalog, bundledAgentsDir, discoverAgents, userAgentsDir } from '../node/agents/registry';
import { resolveHome } from '../node/home';
import { agentBuildCommand, agentBuildUsage } from './agentBuildCommand';
import { agentNewCommand, agentNewUsage } from './agentNewCommand';
import { agentRunCommand, agentRunUsage } from './agentRunCommand';
import { parseFlags, UsageError } from './args';

export const agentUsage = `  agent validate DIR
        Check DIR/manifest.toml against the manifest schema (0.1): every error with its line, expected value and
        fix; warnings too. Exit 0 when valid, 1 when not.
  agent migrate DIR [--dry-run]
        Upgrade DIR/manifest.toml from an older schema_version to the current one, printing what changed; the
        original is kept as manifest.toml.bak. --dry-run prints the result and writes nothing.
  agent list [--home DIR]
        The installed agents: bundled ones and those in <home>/agents, with the invalid ones and their errors.
${agentBuildUsage}
${agentNewUsage}
${agentRunUsage}`;

/** `omni agent …`: returns the process exit code. */
export async function agentCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'validate':
      return validateCommand(rest);
    case 'migrate':
      return migrateCommand(rest);
    case 'list':
      return listCommand(rest);
    case 'run':
      return agentRunCommand(rest);
    case 'build':
      return buildCommand(rest);
    case 'new':
      return newCommand(rest);
    default:
      throw new UsageError(action ? `unknown agent action "${action}"` : 'agent needs an action, e.g. `omni agent validate DIR`');
  }
}

/** The positional DIR (a manifest.toml path is taken to mean its folder), after the flags are split off. */
function agentFolder(args: string[], command: string): { folder: string; flags: string[] } {
  const positional = args.filter((arg) => !arg.startsWith('--'));
  const flags = args.filter((arg) => arg.startsWith('--'));
  if (positional.length !== 1) throw new UsageError(`agent ${command} needs one agent folder, e.g. \`omni agent ${command} ./my-agent\``);
  let folder = resolve(positional[0]);
  if (basename(folder) === MANIFEST_FILE && isFile(folder)) folder = dirname(folder);
  return { folder, flags };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

const summary = (manifest: AgentManifest): string =>
  `"${manifest.name}" ${manifest.version}, sandbox ${manifest.sandbox}, capabilities [${manifest.capabilities.join(', ')}], cpu ${manifest.resources.cpuMillicores}m, mem ${formatMemory(manifest.resources.memBytes)}`;

const byLine = (a: ManifestIssue, b: ManifestIssue): number => (a.line ?? 0) - (b.line ?? 0);

/** Errors first (they decide), then warnings, each in file order. */
function printIssues(report: Pick<ManifestReport, 'issues'>, indent = ''): void {
  for (const issue of [...errorsOf(report).sort(byLine), ...warningsOf(report).sort(byLine)]) console.log(`${indent}${formatIssue(issue).replace(/\n/g, `\n${indent}    `)}`);
}

async function validateCommand(args: string[]): Promise<number> {
  const { folder, flags } = agentFolder(args, 'validate');
  parseFlags(flags, {});
  const report = readManifest(folder);
  const errors = errorsOf(report).length;
  const warnings = warningsOf(report).length;
  if (report.manifest) {
    console.log(`valid: ${report.file}: ${summary(report.manifest)}${warnings ? ` (${warnings} ${warnings === 1 ? 'warning' : 'warnings'})` : ''}`);
  } else {
    console.log(`INVALID: ${report.file}: ${errors} ${errors === 1 ? 'error' : 'errors'}${warnings ? `, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}` : ''}`);
  }
  printIssues(report, '  ');
  return report.manifest ? 0 : 1;
}

async function migrateCommand(args: string[]): Promise<number> {
  const { folder, flags: rawFlags } = agentFolder(args, 'migrate');
  const flags = parseFlags(rawFlags, { 'dry-run': 'flag' });
  const dryRun = flags['dry-run'] === true;
  const outcome = migrateManifestFile(folder, { dryRun });
  if (outcome.status === 'up_to_date') {
    console.log(`${outcome.file} is already at schema_version "${outcome.version}"; nothing to migrate`);
    return 0;
  }
  if (outcome.status === 'failed') {
    console.log(`cannot migrate ${outcome.file}:`);
    printIssues({ issues: outcome.issues }, '  ');
    return 1;
  }
  const { migration } = outcome;
  console.log(`${dryRun ? 'would migrate' : 'migrated'} ${outcome.file} from schema_version "${migration.from}" to "${migration.to}":`);
  for (const step of migration.steps) for (const change of step.changes) console.log(`  ${step.from} → ${step.to}: ${change}`);
  if (dryRun) console.log(`\n(dry run: nothing written) the new ${MANIFEST_FILE} would be:\n\n${outcome.text}`);
  else console.log(`the original is kept in ${outcome.backup}`);
  const report = checkManifestBytes(folder, Buffer.from(outcome.text));
  if (report.manifest) {
    console.log(`the migrated manifest is valid: ${summary(report.manifest)}`);
    printIssues(report, '  ');
    return 0;
  }
  console.log(`the migrated manifest still has errors to fix by hand (\`omni agent validate ${folder}\` checks again):`);
  printIssues(report, '  ');
  return 1;
}

async function buildCommand(args: string[]): Promise<number> {
  const { folder, flags } = agentFolder(args, 'build');
  parseFlags(flags, {});
  return agentBuildCommand(folder);
}

async function newCommand(args: string[]): Promise<number> {
  // --name takes a value, so the value is not the folder.
  const positional: string[] = [];
  const flagArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!args[i].startsWith('--')) positional.push(args[i]);
    else {
      flagArgs.push(args[i]);
      if (!args[i].includes('=') && i + 1 < args.length) flagArgs.push(args[++i]);
    }
  }
  const flags = parseFlags(flagArgs, { name: 'value' });
  if (positional.length !== 1) throw new UsageError('agent new needs one folder, e.g. `omni agent new ./my-agent --name my-agent`');
  if (typeof flags.name !== 'string') throw new UsageError('agent new needs --name NAME, e.g. `omni agent new ./my-agent --name my-agent`');
  return agentNewCommand(resolve(positional[0]), flags.name);
}

async function listCommand(args: string[]): Promise<number> {
  const flags = parseFlags(args, { home: 'value' });
  const home = resolveHome(typeof flags.home === 'string' ? flags.home : undefined);
  const roots = [
    { source: 'bundled' as const, dir: bundledAgentsDir() },
    { source: 'user' as const, dir: userAgentsDir(home) },
  ];
  const catalog = buildCatalog(discoverAgents(roots));
  console.log(`agents (bundled: ${roots[0].dir}, user: ${roots[1].dir})`);
  if (catalog.agents.length === 0) console.log('  none installed');
  for (const agent of catalog.agents) {
    console.log(`  ${summary(agent.manifest)}, ${agent.source}, ${agent.folder}`);
    printIssues(agent.report, '      ');
  }
  if (catalog.invalid.length > 0) {
    console.log(`invalid (not runnable until fixed; \`omni agent validate DIR\` rechecks):`);
    for (const found of catalog.invalid) {
      const errors = errorsOf(found.report).length;
      console.log(`  ${found.folder} (${found.source}): ${errors} ${errors === 1 ? 'error' : 'errors'}`);
      printIssues(found.report, '      ');
    }
  }
  for (const warning of catalog.warnings) console.log(`warning: ${warning}`);
  return 0;
}
