import { claudeConfigDir, findClaudeTranscript, materializeClaudeCodeHome } from '../claudeCodeHome';
import { assertResumableKey } from '../continuationKey';
import { HarnessError } from '../harnessError';
import { loadAgentSdk, type AgentSdkMessage } from './loadAgentSdk';
import { cancelledResult, errorMessage, failedBy, failedResult as failed, type TurnInput, type TurnOutcome } from './turnInput';
import type { RunResult } from '../types';

/** Host variables the Claude Code process needs to run at all; nothing else of the host's env is passed on. */
const PASSED_HOST_VARIABLES = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'USER'];

/**
 * One turn through @anthropic-ai/claude-agent-sdk's query(). The continuation key is the SDK's session id: every
 * message of its stream carries `session_id`, so the first message reveals it. Conversations live in the same
 * Claude Code config dir as the claude-code CLI harness (`<aspHome>/claude-code/config`), so a key from either
 * resumes with either.
 */
export async function runAgentSdkTurn(input: TurnInput): Promise<TurnOutcome> {
  const { request, options, cwd, endpoint, events, signal } = input;
  const configDir = claudeConfigDir(request.aspHome);
  const session = sessionOptions(configDir, request.continuation?.key, cwd);
  const sdk = await loadAgentSdk(options.agentSdkDir);
  if (signal.aborted) return { result: cancelledResult(''), ...(events.continuation ? { continuation: events.continuation } : {}) };
  materializeClaudeCodeHome(configDir, cwd, endpoint.apiKey);

  const env: Record<string, string> = {};
  for (const name of PASSED_HOST_VARIABLES) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, input.env, {
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: endpoint.baseUrl,
    ANTHROPIC_API_KEY: endpoint.apiKey,
    DISABLE_AUTOUPDATER: '1',
    // No telemetry, error reports or update checks from inside a host run: the only network peer is the endpoint.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_AGENT_SDK_CLIENT_APP: 'omniscient-shell',
  });

  const abortController = new AbortController();
  const stop = (): void => abortController.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  if (signal.aborted) stop();
  let stderr = '';
  const query = sdk.query({
    prompt: promptWith(request.prompt, input.attachments),
    options: {
      cwd,
      env,
      abortController,
      ...session,
      ...(request.model !== undefined ? { model: request.model } : {}),
      ...permissionOptions(options.permissionMode, options.uid ?? process.getuid?.()),
      // No settings files: a workspace's .claude/settings.json could define hooks, which would run as the host.
      settingSources: [],
      ...(request.spec.instructions ? { systemPrompt: { type: 'preset', preset: 'claude_code', append: request.spec.instructions } } : {}),
      // Token-level events, so the host can show the answer as it streams.
      includePartialMessages: true,
      stderr: (chunk: string) => {
        stderr = (stderr + chunk).slice(-4000);
      },
    },
  });

  let finalText = '';
  let model: string | undefined = request.model;
  let result: RunResult | undefined;
  try {
    for await (const message of query) {
      if (typeof message.session_id === 'string' && message.session_id !== '') events.observe({ provider: 'anthropic', key: message.session_id });
      if (message.type === 'system' && message.subtype === 'init' && typeof message.model === 'string') model ??= message.model;
      if (message.type === 'assistant') finalText = assistantText(message) || finalText;
      events.emit(message);
      if (message.type === 'result') result = resultOf(message, finalText);
    }
  } catch (error) {
    // Whatever broke the loop (the caller's abort, a throwing onEvent, the SDK itself), Claude Code is stopped.
    if (!abortController.signal.aborted) abortController.abort();
    // The SDK also throws after an error result ("Claude Code returned an error result: …"); that result says more.
    if (signal.aborted) result = cancelledResult(finalText);
    else if (result === undefined || result.status === 'completed') result = failedBy(error, 'AGENT_SDK_ERROR', `${errorMessage(error)}${stderr ? `\nClaude Code stderr: ${stderr.trim()}` : ''}`, finalText);
  } finally {
    signal.removeEventListener('abort', stop);
    query.close?.();
  }
  if (signal.aborted && result?.status !== 'completed') result = cancelledResult(finalText);
  result ??= failed('AGENT_SDK_NO_RESULT', `the Agent SDK's stream ended without a result message${stderr ? `; Claude Code stderr: ${stderr.trim()}` : ''}`, finalText);
  return { result, ...(events.continuation ? { continuation: events.continuation } : {}), ...(model !== undefined ? { model } : {}) };
}

/**
 * Resume when Claude Code has the key's transcript (it looks only in the folder of the cwd it starts in, so a
 * transcript from another cwd is refused with the cwd to use); a key without transcript (a claude-code session
 * that never got an answer) starts that conversation under the same id, as the CLI harness does.
 */
function sessionOptions(configDir: string, key: string | undefined, cwd: string): { resume: string } | { sessionId: string } | Record<string, never> {
  if (key === undefined) return {};
  assertResumableKey('agent-sdk', key);
  const transcript = findClaudeTranscript(configDir, key);
  if (!transcript) return { sessionId: key };
  if (!transcript.belongsTo(cwd)) {
    const origin = transcript.recordedCwd ?? `the folder Claude Code names ${transcript.projectDir}`;
    throw new HarnessError(
      'HARNESS_RESUME_CWD_MISMATCH',
      `Claude session ${key} was started in ${origin}; it can only be resumed from there (Claude Code keeps conversations per folder). Run the turn with cwd ${origin}, or start a new conversation in ${cwd}.`,
    );
  }
  return { resume: key };
}

/** Nobody answers a permission prompt in a non-interactive turn: asking means denying (fail closed). */
function permissionOptions(mode: 'ask' | 'acceptEdits' | 'bypass' | undefined, uid: number | undefined): Record<string, unknown> {
  if (mode === 'bypass' && uid !== 0) return { permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true };
  if (mode === 'acceptEdits') return { permissionMode: 'acceptEdits' };
  return { permissionMode: 'dontAsk' };
}

function promptWith(prompt: string, attachments: string[]): string {
  if (attachments.length === 0) return prompt;
  return `${prompt}\n\nAttached files (read them from disk):\n${attachments.map((file) => `- ${file}`).join('\n')}`;
}

/** The text blocks of an SDK assistant message ({message: {content: [{type: 'text', text}]}}). */
function assistantText(message: AgentSdkMessage): string {
  const content = (message.message as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block): block is { type: 'text'; text: string } => typeof block === 'object' && block !== null && block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('');
}

function resultOf(message: AgentSdkMessage, finalText: string): RunResult {
  const text = typeof message.result === 'string' ? message.result : finalText;
  if (message.subtype === 'success' && message.is_error !== true) return { status: 'completed', finalText: text };
  const errors = Array.isArray(message.errors) ? message.errors.filter((e): e is string => typeof e === 'string') : [];
  const detail = errors.join('; ') || text || 'no detail given';
  // subtype "success" with is_error: the turn ran but the model API refused it (Claude Code puts "API Error: …" in result).
  const code = message.subtype === 'success' ? 'AGENT_SDK_API_ERROR' : `AGENT_SDK_${String(message.subtype ?? 'error').toUpperCase()}`;
  return failed(code, `the Agent SDK ended the turn with an error (${String(message.subtype)}): ${detail}`, text);
}
