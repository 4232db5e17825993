import { join } from 'node:path';
import { parsePromptTimeout, promptTimeoutFromEnv } from '../node/consent/promptTimeoutSetting';
import { resolveHome } from '../node/home';
import { HomeInUseError } from '../node/homeLock';
import { startServer } from '../server/server';
import packageJson from '../../package.json';
import { agentCommand, agentUsage } from './agentCommand';
import { parseFlags, UsageError } from './args';
import { harnessCommand, harnessUsage } from './harnessCommand';
import { ledgerCommand, ledgerUsage } from './ledgerCommand';
import { endQuietlyOnBrokenPipe, exitAfterOutput } from './processOutput';
import { NoRunningHostError } from './runningHost';
import { shellCommand, shellUsage } from './shellCommand';

const usage = `Usage: omni <command> [options]

Commands:
  serve [--port N] [--home DIR] [--new-token] [--consent-timeout 30m]
        Start the host headless and serve the UI at http://127.0.0.1:N/?token=…
        (--port 0 or no --port picks a free port; --home defaults to $OMNI_HOME or ~/.omniscient-shell)
        --consent-timeout: how long a consent card on screen waits for an answer before it is denied (90s, 30m, 2h;
        default $OMNI_CONSENT_TIMEOUT or 30m). The clock only runs while a page shows the session.
        One host per home: exit 5, with the running host's pid and address, when another host uses it.
${ledgerUsage}
${agentUsage}
${shellUsage}
${harnessUsage}
  version   Print the version.
  help      Print this help.`;

async function serve(args: string[]): Promise<void> {
  const flags = parseFlags(args, { port: 'value', home: 'value', 'new-token': 'flag', 'consent-timeout': 'value' });
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, not "${String(flags.port)}"`);
  const home = resolveHome(typeof flags.home === 'string' ? flags.home : undefined);
  const timeout = typeof flags['consent-timeout'] === 'string' ? parsePromptTimeout(flags['consent-timeout'], '--consent-timeout') : undefined;
  if (timeout && !timeout.ok) throw new UsageError(timeout.reason);
  let consentPromptTimeoutMs: number | undefined = timeout?.ms;
  try {
    consentPromptTimeoutMs ??= promptTimeoutFromEnv();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const server = await startServer({
    home,
    version: packageJson.version,
    port,
    rendererDir: join(__dirname, '..', 'renderer'),
    rotateToken: flags['new-token'] === true,
    consentPromptTimeoutMs,
  });
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`omni: ${signal} received, stopping (terminals are closed, data is kept)`);
    void server.close().then(() => exitAfterOutput(0));
  };
  // Before the ready line: whoever waits for it may stop the host at once, and a signal that came before the
  // handlers ended the process without closing anything (seen in `npm run bench`, which stops hosts right away).
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  console.log(`Omniscient Shell ready at ${server.url}`);
  console.log(`home: ${home}`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // A host's output is its log: a reader that goes away (`omni serve | head -1`) does not stop the UI and the runs
  // it serves (SIGTERM does). Any other command's output is its answer, and nobody is left to take the rest.
  endQuietlyOnBrokenPipe(command === 'serve' ? () => undefined : undefined);
  switch (command) {
    case 'serve':
      await serve(rest);
      return -1;
    case 'ledger':
      return ledgerCommand(rest);
    case 'agent':
      return agentCommand(rest);
    case 'shell':
      return shellCommand(rest);
    case 'harness':
      return harnessCommand(rest);
    case 'version':
    case '--version':
      console.log(packageJson.version);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(usage);
      return 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

// Never process.exit() directly: what is still queued for a pipe would be lost (see processOutput.ts).
main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) exitAfterOutput(code);
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`omni: ${error.message}\n\n${usage}`);
      return exitAfterOutput(2);
    }
    if (error instanceof HomeInUseError) {
      console.error(`omni: ${error.message}`);
      return exitAfterOutput(5);
    }
    if (error instanceof NoRunningHostError) {
      console.error(`omni: ${error.message}`);
      return exitAfterOutput(3);
    }
    console.error(`omni: ${error instanceof Error ? error.message : String(error)}`);
    exitAfterOutput(1);
  },
);
