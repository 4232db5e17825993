import {
  client,
  PROTOCOL_VERSION,
  RequestError,
  type ClientConnection,
  type ContentBlock,
  type CreateTerminalRequest,
  type CreateTerminalResponse,
  type InitializeResponse,
  type KillTerminalRequest,
  type LoadSessionResponse,
  type NewSessionResponse,
  type PromptResponse,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type ReleaseTerminalRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type TerminalOutputRequest,
  type TerminalOutputResponse,
  type WaitForTerminalExitRequest,
  type WaitForTerminalExitResponse,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import { AcpError } from './acpError';
import { acpLineChannel, SESSION_UPDATE_METHOD } from './acpLineChannel';
import type { AcpAgentProcess } from './acpProcess';

/** What the agent may ask of the host (ACP's client side). Each runs with the request's abort signal. */
export interface AcpClientHandlers {
  /** Every session/update, in order; its `update.sessionUpdate` may be a kind this host does not know. */
  onSessionUpdate(notification: SessionNotification): void;
  requestPermission(params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  readTextFile(params: ReadTextFileRequest, signal: AbortSignal): Promise<ReadTextFileResponse>;
  writeTextFile(params: WriteTextFileRequest, signal: AbortSignal): Promise<void>;
  createTerminal(params: CreateTerminalRequest, signal: AbortSignal): Promise<CreateTerminalResponse>;
  terminalOutput(params: TerminalOutputRequest): Promise<TerminalOutputResponse>;
  waitForTerminalExit(params: WaitForTerminalExitRequest, signal: AbortSignal): Promise<WaitForTerminalExitResponse>;
  killTerminal(params: KillTerminalRequest): Promise<void>;
  releaseTerminal(params: ReleaseTerminalRequest): Promise<void>;
  /** Something the agent did that the host does not act on: a garbage line, an unknown notification or method. */
  onNotice(text: string): void;
}

export interface AcpConnectionOptions {
  /** How long initialize, session/new and session/load may take (default 60 s: a real adapter starting its CLI takes seconds, docs/acp.md). */
  setupTimeoutMs?: number;
  /** How long a turn may go on after session/cancel before the agent counts as hung (default 10 s). */
  cancelGraceMs?: number;
  maxLineBytes?: number;
  maxGarbageRun?: number;
}

const DEFAULT_SETUP_TIMEOUT_MS = 60_000;
const DEFAULT_CANCEL_GRACE_MS = 10_000;
const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_GARBAGE_RUN = 200;
const STDERR_TAIL = 4000;

/**
 * The host's end of one agent process: ACP over its stdio through the SDK's client app. Every call is raced
 * against the agent's end (exit, a fatal framing error, a timeout), which is turned into a typed AcpError, so a
 * broken agent never leaves a caller waiting or takes the host down; close() reaps the process tree.
 */
export class AcpConnection {
  readonly stderrTail: string[] = [];
  private readonly connection: ClientConnection;
  private endError: AcpError | undefined;
  private readonly ended: Promise<AcpError>;
  private endWith!: (error: AcpError) => void;
  private initialized: InitializeResponse | undefined;
  private readonly setupTimeoutMs: number;
  readonly cancelGraceMs: number;

  private constructor(
    readonly process: AcpAgentProcess,
    private readonly agentName: string,
    handlers: AcpClientHandlers,
    options: AcpConnectionOptions,
  ) {
    this.setupTimeoutMs = options.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS;
    this.cancelGraceMs = options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
    this.ended = new Promise((resolve) => {
      this.endWith = (error) => {
        if (this.endError) return;
        this.endError = error;
        resolve(error);
      };
    });
    let stderrChars = 0;
    process.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.stderrTail.push(text);
      stderrChars += text.length;
      while (stderrChars > STDERR_TAIL && this.stderrTail.length > 1) stderrChars -= this.stderrTail.shift()!.length;
    });
    process.stderr.on('error', () => {});
    const stream = acpLineChannel(process.stdin, process.stdout, {
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      maxGarbageRun: options.maxGarbageRun ?? DEFAULT_MAX_GARBAGE_RUN,
      onGarbage: (line) => handlers.onNotice(`the agent wrote a line that is not an ACP message: ${line}`),
      onFatal: (error) => {
        this.endWith(error);
        void process.kill();
      },
    });
    const app = client({ name: 'omniscient-shell' })
      .onNotification(SESSION_UPDATE_METHOD, lenientSessionNotification, ({ params }) => handlers.onSessionUpdate(params))
      .onNotification('*', ({ method }) => handlers.onNotice(`the agent sent a notification this host does not handle: ${method}`))
      .onRequest('session/request_permission', ({ params, signal }) => handlers.requestPermission(params, signal))
      .onRequest('fs/read_text_file', ({ params, signal }) => handlers.readTextFile(params, signal))
      .onRequest('fs/write_text_file', async ({ params, signal }) => {
        await handlers.writeTextFile(params, signal);
        return {};
      })
      .onRequest('terminal/create', ({ params, signal }) => handlers.createTerminal(params, signal))
      .onRequest('terminal/output', ({ params }) => handlers.terminalOutput(params))
      .onRequest('terminal/wait_for_exit', ({ params, signal }) => handlers.waitForTerminalExit(params, signal))
      .onRequest('terminal/kill', async ({ params }) => {
        await handlers.killTerminal(params);
        return {};
      })
      .onRequest('terminal/release', async ({ params }) => {
        await handlers.releaseTerminal(params);
        return {};
      })
      .onRequest('*', ({ method }) => {
        handlers.onNotice(`the agent called a method this host does not offer: ${method}`);
        throw RequestError.methodNotFound(method);
      });
    this.connection = app.connect(stream);
    void process.exited.then(({ code, signal }) => {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const tail = this.stderrTail.join('').trim();
      const error = this.initialized
        ? new AcpError('ACP_AGENT_CRASHED', `the ${agentName} agent ${how} during the conversation${tail ? `; its last words: ${tail.slice(-1000)}` : ''}`)
        : new AcpError('ACP_AGENT_CRASHED_AT_START', `the ${agentName} agent ${how} before it was ready${tail ? `; its last words: ${tail.slice(-1000)}` : ''}. Check that it is installed and configured (its API key or login)`);
      this.endWith(error);
      this.connection.close(error);
    });
    void this.connection.closed.then(async () => {
      // Its output ends just before its exit is seen: give the exit a moment to say how it ended.
      await Promise.race([process.exited, delay(1000)]);
      this.endWith(new AcpError('ACP_AGENT_CRASHED', `the ${agentName} agent closed the connection`));
      void process.kill();
    });
  }

  /**
   * Starts the conversation with a running agent process: initialize, with the host's capabilities (fs read/write,
   * terminals). A protocol version other than the host's is refused with ACP_PROTOCOL_VERSION, saying which side
   * is older; the process is then stopped.
   */
  static async open(process: AcpAgentProcess, agentName: string, handlers: AcpClientHandlers, options: AcpConnectionOptions = {}): Promise<AcpConnection> {
    const connection = new AcpConnection(process, agentName, handlers, options);
    try {
      const response = await connection.setup('initialize', () =>
        connection.connection.agent.request('initialize', {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
          clientInfo: { name: 'omniscient-shell', title: 'Omniscient Shell', version: '1' },
        }),
      );
      if (response.protocolVersion !== PROTOCOL_VERSION) {
        const older = typeof response.protocolVersion === 'number' && response.protocolVersion < PROTOCOL_VERSION;
        throw new AcpError(
          'ACP_PROTOCOL_VERSION',
          older
            ? `the ${agentName} agent speaks ACP version ${response.protocolVersion}, older than this host's ${PROTOCOL_VERSION}; update the agent`
            : `the ${agentName} agent speaks ACP version ${String(response.protocolVersion)}, newer than this host's ${PROTOCOL_VERSION}; update Omniscient Shell`,
        );
      }
      connection.initialized = response;
      return connection;
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  get agentInfo(): InitializeResponse {
    return this.initialized!;
  }

  /** Whether the agent said it can load earlier sessions (session/load). */
  get canLoadSession(): boolean {
    return this.initialized?.agentCapabilities?.loadSession === true;
  }

  /** Set once the agent is gone or unusable: why. */
  get endReason(): AcpError | undefined {
    return this.endError;
  }

  /** Settles with the reason once the agent is gone or unusable. */
  whenEnded(): Promise<AcpError> {
    return this.ended;
  }

  newSession(cwd: string): Promise<NewSessionResponse> {
    return this.setup('session/new', () => this.connection.agent.request('session/new', { cwd, mcpServers: [] }));
  }

  async loadSession(sessionId: string, cwd: string): Promise<LoadSessionResponse> {
    return (await this.setup('session/load', () => this.connection.agent.request('session/load', { sessionId, cwd, mcpServers: [] }))) ?? {};
  }

  /** One turn; no timeout of its own (turns take as long as they take), but the agent's end ends it. */
  prompt(sessionId: string, prompt: ContentBlock[]): Promise<PromptResponse> {
    return this.call('session/prompt', this.connection.agent.request('session/prompt', { sessionId, prompt }));
  }

  async cancel(sessionId: string): Promise<void> {
    await this.call('session/cancel', this.connection.agent.notify('session/cancel', { sessionId })).catch(() => {});
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.setup('session/set_mode', () => this.connection.agent.request('session/set_mode', { sessionId, modeId }));
  }

  async setConfigOption(sessionId: string, configId: string, value: string): Promise<void> {
    await this.setup('session/set_config_option', () => this.connection.agent.request('session/set_config_option', { sessionId, configId, value }));
  }

  /** Stops the agent and its whole process tree; calls still waiting fail with `reason`. Idempotent. */
  async close(reason?: AcpError): Promise<void> {
    this.endWith(reason ?? new AcpError('ACP_NOT_RUNNING', `the ${this.agentName} agent was stopped`));
    this.connection.close(this.endError);
    await this.process.kill();
  }

  /** A request that must answer in setupTimeoutMs; a silent agent is ACP_AGENT_HUNG and is stopped. */
  private async setup<T>(method: string, send: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new AcpError('ACP_AGENT_HUNG', `the ${this.agentName} agent did not answer ${method} within ${Math.round(this.setupTimeoutMs / 1000)} s; it was stopped`);
        this.endWith(error);
        void this.process.kill();
        reject(error);
      }, this.setupTimeoutMs);
    });
    try {
      return await Promise.race([this.call(method, send()), hung]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The request's answer, or the typed reason the agent is gone; an error the agent answered is ACP_AGENT_ERROR. */
  private async call<T>(method: string, request: Promise<T>): Promise<T> {
    if (this.endError) {
      request.catch(() => {});
      throw this.endError;
    }
    const ended = this.ended.then((error) => {
      throw error;
    });
    try {
      return await Promise.race([request, ended]);
    } catch (error) {
      if (error instanceof AcpError) throw error;
      if (this.endError) throw this.endError;
      if (this.connection.signal.aborted) throw await this.ended;
      if (error instanceof RequestError) {
        throw new AcpError('ACP_AGENT_ERROR', `the ${this.agentName} agent refused ${method}: ${error.message}${error.data !== undefined ? ` (${JSON.stringify(error.data).slice(0, 500)})` : ''}`, { cause: error });
      }
      throw new AcpError('ACP_AGENT_ERROR', `${method} to the ${this.agentName} agent failed: ${(error as Error).message}`, { cause: error });
    } finally {
      ended.catch(() => {});
    }
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * session/update as sent, checked only for what routing needs: a session id and an update with a kind. Kinds this
 * SDK does not know yet pass through (the conversation shows them), where the SDK's strict schema would drop them.
 */
function lenientSessionNotification(params: unknown): SessionNotification {
  const p = params as { sessionId?: unknown; update?: { sessionUpdate?: unknown } } | null;
  if (!p || typeof p.sessionId !== 'string' || !p.update || typeof p.update !== 'object' || typeof p.update.sessionUpdate !== 'string') {
    throw RequestError.invalidParams(undefined, 'session/update needs a sessionId and an update with a sessionUpdate kind');
  }
  return params as SessionNotification;
}
