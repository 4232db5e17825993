import { ShellRequest, RpcError } from '../../src-preload/contract';
import { resolveHome } from '../node/home';
import { parseFlags, UsageError } from './args';
import { connectToRunningHost } from './runningHost';

export const shellUsage = `  shell '<json request>' [--home DIR] [--session ID]
        Call the shell tool of the running host of this home, as the user, and print the JSON result, e.g.
        omni shell '{"action":"spawn","command":"make test","session_id":"ses_…"}'
        omni shell '{"action":"poll","run_id":"run_…","since_seq":0}'
        --session fills in session_id when the request has none. Exit 0 on success, 1 on a refused request
        (the error is printed as JSON on stderr), 3 when no host is running.`;

/** Parses the request text, saying where JSON went wrong; schema errors are the host's to report (typed). */
function parseRequest(text: string, session: string | undefined): unknown {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the request is not valid JSON (${(error as Error).message}); quote it for your shell, e.g. '{"action":"poll","run_id":"run_…"}'`);
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) throw new UsageError('the request must be a JSON object, e.g. {"action":"spawn","command":"ls"}');
  if (session !== undefined && (request as Record<string, unknown>).session_id === undefined) return { ...request, session_id: session };
  return request;
}

/** `omni shell '<json>'`: returns the process exit code. */
export async function shellCommand(args: string[]): Promise<number> {
  const [text, ...rest] = args;
  if (text === undefined || text.startsWith('--')) throw new UsageError("shell needs a JSON request, e.g. omni shell '{\"action\":\"poll\",\"run_id\":\"run_…\"}'");
  const flags = parseFlags(rest, { home: 'value', session: 'value' });
  const request = parseRequest(text, typeof flags.session === 'string' ? flags.session : undefined);
  // Checked here too so a typo is reported without needing a host; the host checks again (it trusts no client).
  const checked = ShellRequest.safeParse(request);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
    console.error(JSON.stringify({ error: { code: 'INVALID_PARAMS', message: issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues } }));
    return 1;
  }
  const home = resolveHome(typeof flags.home === 'string' ? flags.home : undefined);
  const connection = await connectToRunningHost(home);
  try {
    const result = await connection.client.call('exec.shell', checked.data);
    console.log(JSON.stringify(result));
    return 0;
  } catch (error) {
    if (error instanceof RpcError) {
      console.error(JSON.stringify({ error: error.toBody() }));
      return 1;
    }
    throw error;
  } finally {
    connection.close();
  }
}
