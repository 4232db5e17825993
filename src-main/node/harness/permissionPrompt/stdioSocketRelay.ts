/**
 * The MCP server process Claude Code spawns for the permission prompt: a byte pipe between its stdio and the host's
 * private unix socket, where the real server (the SDK's, in the host) answers. Nothing of the host runs in it, so it
 * needs no build of its own: `node -e RELAY_SOURCE <socket path>`. When the host goes away the socket closes, the
 * relay exits, and Claude Code finds its permission tool gone (and denies).
 */
export const RELAY_SOURCE = [
  "'use strict';",
  "const socket = require('node:net').connect(process.argv[1]);",
  "socket.on('error', (error) => { process.stderr.write('omni permission relay: ' + error.message + '\\n'); process.exit(1); });",
  "socket.on('close', () => { process.stdin.destroy(); process.stdout.end(); setTimeout(() => process.exit(0), 1000).unref(); });",
  "process.stdin.on('end', () => socket.end());",
  'process.stdin.pipe(socket);',
  'socket.pipe(process.stdout);',
].join('\n');

/** MCP server name and tool name: Claude Code calls the tool `mcp__<server>__<tool>`. */
export const PERMISSION_SERVER_NAME = 'omni';
export const PERMISSION_TOOL_NAME = 'permission_prompt';
export const PERMISSION_PROMPT_TOOL = `mcp__${PERMISSION_SERVER_NAME}__${PERMISSION_TOOL_NAME}`;

/**
 * The --mcp-config that makes Claude Code spawn the relay. `nodeExecutable` defaults to this process's own binary;
 * in Electron that is Electron, which runs as plain Node with ELECTRON_RUN_AS_NODE=1 (plain Node ignores it).
 * It holds no secret: who may connect is decided by the socket's folder (0700) and mode (0600).
 */
export function relayMcpConfig(socketPath: string, nodeExecutable: string = process.execPath): { mcpServers: Record<string, unknown> } {
  return {
    mcpServers: {
      [PERMISSION_SERVER_NAME]: {
        type: 'stdio',
        command: nodeExecutable,
        args: ['-e', RELAY_SOURCE, socketPath],
        env: { ELECTRON_RUN_AS_NODE: '1' },
      },
    },
  };
}
