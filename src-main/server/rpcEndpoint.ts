import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { contract, type Contract } from '../../src-preload/contract';
import { MAX_FRAME_CHARS, RpcServer } from '../../src-preload/rpc';
import type { HostServices } from '../node/hostServices';
import { tokensMatch } from './authToken';
import { WebSocketTransport } from './webSocketTransport';

/** Socket messages larger than this are cut off by the WebSocket layer itself (close code 1009). */
const MAX_SOCKET_MESSAGE_BYTES = 4 * MAX_FRAME_CHARS;

export interface RpcEndpoint {
  /** Takes an HTTP upgrade request: answers it with an RPC connection, or refuses it with a status. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

function rejectUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-type: text/plain\r\ncontent-length: ${text.length}\r\n\r\n${text}`);
}

/**
 * The contract over a WebSocket at /rpc, for one host. It only accepts the connection token, a Host header naming
 * this server (no DNS rebinding) and, from browsers, only the allowed origins (no other site can drive it); a
 * client without an Origin header (the `omni` CLI, a script) needs the token like everyone else.
 */
export function createRpcEndpoint(services: HostServices, token: string, allowed: () => { hosts: string[]; origins: string[] }): RpcEndpoint {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_SOCKET_MESSAGE_BYTES });
  const connections = new Set<RpcServer<Contract>>();
  return {
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== '/rpc') return rejectUpgrade(socket, 404, 'Not Found');
      const { hosts, origins } = allowed();
      if (!hosts.includes(req.headers.host ?? '')) return rejectUpgrade(socket, 421, 'Misdirected Request');
      const origin = req.headers.origin;
      if (origin !== undefined && !origins.includes(origin)) return rejectUpgrade(socket, 403, 'Forbidden');
      if (!tokensMatch(url.searchParams.get('token'), token)) return rejectUpgrade(socket, 401, 'Unauthorized');
      wss.handleUpgrade(req, socket, head, (ws) => {
        const server = new RpcServer(contract, services.handlers, new WebSocketTransport(ws), 'websocket', {
          // Through the host log, which scrubs secrets: an unexpected error is where a token gets quoted by accident.
          onInternalError: (method, error) => services.log.error(`${method} failed:`, error),
          // A burst of stream items (the microtasks of one event loop turn) goes out in one frame per subscription.
          batch: (flush) => process.nextTick(flush),
        });
        connections.add(server);
        ws.on('close', () => connections.delete(server));
      });
    },
    close() {
      for (const connection of connections) connection.dispose();
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
