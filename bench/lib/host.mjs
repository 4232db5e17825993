// Starting the real host (`omni serve`) and talking to it the way the renderer does: the RPC frames of
// src-preload/rpc/frames.ts over ws://127.0.0.1:PORT/rpc?token=T.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { adopt, stop } from './cleanup.mjs';

export const READY_LINE = /Omniscient Shell ready at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+))/;

/**
 * Spawns `command args` and resolves when a stdout line matches `ready`, with the elapsed time from just before
 * spawn() to the chunk that completed the line. The child is registered for cleanup.
 */
export function spawnUntilReady(command, args, { ready, kind = 'proc', cwd, env, timeoutMs = 30_000 }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    adopt(child, kind);
    let out = '';
    let err = '';
    let done = false;
    const timer = setTimeout(() => finish(new Error(`no ready line from ${command} ${args.join(' ')} within ${timeoutMs} ms\n${out}${err}`)), timeoutMs);
    const finish = (error, match) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error) {
        void stop(child).then(() => reject(error));
      } else {
        resolve({ child, ms: performance.now() - started, match, output: () => out + err });
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const at = performance.now();
      out += chunk;
      const match = ready.exec(out);
      if (match && !done) {
        done = true;
        clearTimeout(timer);
        resolve({ child, ms: at - started, match, output: () => out + err });
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.once('error', (error) => finish(error));
    child.once('exit', (code, signal) => finish(new Error(`${command} ${args.join(' ')} exited (${code ?? signal}) before it was ready:\n${out}${err}`)));
  });
}

/** Starts `node [nodeArgs] bin/omni.mjs serve --port 0 --home HOME`; resolves with its url, port, token and start-up time. */
export async function startHost(root, home, env = process.env, nodeArgs = []) {
  const { child, ms, match, output } = await spawnUntilReady(process.execPath, [...nodeArgs, join(root, 'bin/omni.mjs'), 'serve', '--port', '0', '--home', home], {
    ready: READY_LINE,
    kind: 'host',
    cwd: root,
    env,
  });
  return { child, ms, url: match[1], port: Number(match[2]), token: match[3], output, stop: () => stop(child, 5000) };
}

/** A bare RPC client (calls only; the bench never subscribes, so it never holds a terminal's flow control). */
export class HostRpc {
  static connect(port, token) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/rpc?token=${encodeURIComponent(token)}`, { perMessageDeflate: false });
      socket.once('open', () => resolve(new HostRpc(socket)));
      socket.once('error', reject);
    });
  }

  constructor(socket) {
    this.socket = socket;
    this.nextId = 1;
    this.pending = new Map();
    socket.on('message', (raw) => {
      let frame;
      try {
        frame = JSON.parse(String(raw));
      } catch {
        return;
      }
      const call = this.pending.get(frame.id);
      if (!call) return;
      this.pending.delete(frame.id);
      if (frame.t === 'ok') call.resolve(frame.result);
      else if (frame.t === 'err') call.reject(new Error(`${call.method}: ${frame.error?.code} ${frame.error?.message}`));
    });
    socket.on('close', () => {
      for (const call of this.pending.values()) call.reject(new Error(`${call.method}: connection closed`));
      this.pending.clear();
    });
  }

  call(method, params = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.socket.send(JSON.stringify({ t: 'call', id, method, params }));
    });
  }

  close() {
    this.socket.close();
  }
}
