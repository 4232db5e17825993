import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import type { ConsentEngine } from '../../consent/consentEngine';
import { decidePermission, type PermissionResult, type PermissionSession } from './permissionDecision';
import { PERMISSION_PROMPT_TOOL, PERMISSION_TOOL_NAME, relayMcpConfig } from './stdioSocketRelay';

export interface PermissionPromptOptions {
  /** Where the private folder for the socket goes (default the OS temp dir; unix socket paths are short). */
  socketParent?: string;
  /** The binary that runs the relay (default process.execPath). */
  nodeExecutable?: string;
}

const requestShape = {
  tool_name: z.string().min(1).max(200),
  input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().max(200).optional(),
};

/**
 * The permission prompt of one headless Claude Code session: an MCP server (the SDK's) with one tool,
 * `permission_prompt`, answering on a unix socket in a private folder, and the --mcp-config file that tells the CLI
 * how to reach it. Pass `{tool, mcpConfig}` as buildProcessInvocationSpec's `permissionPromptTool`.
 *
 * Why a unix socket: only processes of the host's own user can connect (folder 0700, socket 0600), nothing listens
 * on the network, and there is no secret that could leak through argv, env or a file the agent can read. The
 * socket belongs to this session, so which session a request is for is decided by where it arrives, not by what
 * the caller claims.
 */
export class PermissionPromptServer {
  readonly tool = PERMISSION_PROMPT_TOOL;
  private readonly connections = new Set<Socket>();
  /** The grants that allowed this session's tool calls: its spent "Allow once" grants leave the list at close(). */
  private readonly usedGrants = new Set<string>();
  private closed = false;

  private constructor(
    private readonly engine: ConsentEngine,
    readonly session: PermissionSession,
    private readonly dir: string,
    private readonly server: Server,
  ) {}

  /** Throws a RangeError naming the field for a session it could not serve (ids missing, workspace not an absolute folder). */
  static async open(engine: ConsentEngine, session: PermissionSession, options: PermissionPromptOptions = {}): Promise<PermissionPromptServer> {
    assertSession(session);
    // mkdtemp makes the folder 0700.
    const dir = mkdtempSync(join(options.socketParent ?? tmpdir(), 'omni-permission-'));
    const server = createServer();
    const prompt = new PermissionPromptServer(engine, session, dir, server);
    try {
      server.on('connection', (socket) => prompt.serve(socket));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(prompt.socketPath, () => {
          server.off('error', reject);
          resolve();
        });
      });
      chmodSync(prompt.socketPath, 0o600);
      writeFileSync(prompt.mcpConfig, JSON.stringify(relayMcpConfig(prompt.socketPath, options.nodeExecutable)), { mode: 0o600 });
    } catch (error) {
      await prompt.close();
      throw error;
    }
    return prompt;
  }

  get socketPath(): string {
    return join(this.dir, 'prompt.sock');
  }

  /** The --mcp-config file (0600). */
  get mcpConfig(): string {
    return join(this.dir, 'mcp.json');
  }

  /** What buildProcessInvocationSpec takes as `permissionPromptTool`. */
  get invocation(): { tool: string; mcpConfig: string } {
    return { tool: this.tool, mcpConfig: this.mcpConfig };
  }

  /**
   * Stops listening and drops the connections: prompts still waiting are denied, the CLI's relay exits. The run is
   * over, so the "Allow once" grants it spent are no longer in flight.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const socket of this.connections) socket.destroy();
    this.engine.retireUsed(this.usedGrants);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private serve(socket: Socket): void {
    if (this.closed) return void socket.destroy();
    this.connections.add(socket);
    const mcp = new McpServer({ name: 'omni-permission-prompt', version: '1.0.0' });
    mcp.registerTool(
      PERMISSION_TOOL_NAME,
      {
        description: "Asks the Omni Shell user (through the app's consent engine) whether a Claude Code tool call may run.",
        inputSchema: requestShape,
      },
      async (request, extra) => {
        let result: PermissionResult;
        try {
          result = await decidePermission(this.engine, this.session, request, extra.signal, (grantId) => this.usedGrants.add(grantId));
        } catch (error) {
          result = { behavior: 'deny', message: `Denied by Omni Shell's consent: the request could not be decided (${(error as Error)?.message ?? String(error)})` };
        }
        return { content: [{ type: 'text' as const, text: JSON.stringify(result) }] };
      },
    );
    const transport = new StdioServerTransport(socket, socket);
    // The CLI (or its relay) gone: the transport closes, which aborts the requests in flight (their cards go away).
    socket.on('close', () => {
      this.connections.delete(socket);
      void mcp.close();
    });
    socket.on('error', () => socket.destroy());
    void mcp.connect(transport).catch(() => socket.destroy());
  }
}

function assertSession(session: PermissionSession): void {
  for (const field of ['agentId', 'sessionId'] as const) {
    const value: unknown = session?.[field];
    if (typeof value !== 'string' || value.length === 0 || value.length > 200) {
      throw new RangeError(`permission prompt: ${field} must be a non-empty id of at most 200 characters (the consent cards and grants belong to it)`);
    }
  }
  if (typeof session.workspace !== 'string' || !isAbsolute(session.workspace) || !statSync(session.workspace, { throwIfNoEntry: false })?.isDirectory()) {
    throw new RangeError(`permission prompt: workspace must be the CLI's cwd, an absolute path to an existing folder (got ${JSON.stringify(session.workspace)})`);
  }
}
