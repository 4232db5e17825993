// The throughput payload: printable ASCII text in lines of varied length with LF line ends, generated once
// (deterministically) into .cache/bench/ and reused. The pty turns each LF into CRLF, so xterm parses
// `bytes + lines` characters; the reference is sent exactly that CRLF text.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

const WORDS = (
  'the quick brown fox jumps over lazy dog agent ledger grant revoke sandbox terminal session workspace ' +
  'checkpoint consent stream credit xterm parse render host bridge token 0 1 2 3 42 1024 65536 ' +
  'src/main.ts:12:7 error: warning: ok PASS FAIL [info] {"k":"v"} --flag=value ~/.cache a+b=c (x) <y> #z $PATH %d'
).split(' ');

/** A small deterministic PRNG (mulberry32), so every run parses the very same text. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(path, bytes) {
  mkdirSync(dirname(path), { recursive: true });
  const next = random(0x0b5e55ed);
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    while (written < bytes) {
      const lines = [];
      let size = 0;
      while (size < 1 << 20) {
        // Mostly short lines, some long ones that wrap: what build logs and `cat` of source files look like.
        const target = next() < 0.1 ? 120 + Math.floor(next() * 200) : Math.floor(next() * 100);
        let line = '';
        while (line.length < target) line += (line ? ' ' : '') + WORDS[Math.floor(next() * WORDS.length)];
        lines.push(line);
        size += line.length + 1;
      }
      let block = lines.join('\n') + '\n';
      if (written + block.length > bytes) {
        block = block.slice(0, bytes - written);
        block = block.slice(0, block.lastIndexOf('\n') + 1) || block;
        if (written + block.length < bytes) block = block.slice(0, -1) + ' '.repeat(bytes - written - block.length) + '\n';
      }
      writeSync(fd, block);
      written += block.length;
    }
  } finally {
    closeSync(fd);
  }
}

/** Ensures the payload file exists; returns its path, its bytes, and the CRLF text xterm will parse. */
export function preparePayload(path, bytes) {
  if (!existsSync(path) || statSync(path).size !== bytes) generate(path, bytes);
  const text = readFileSync(path, 'latin1');
  if (text.length !== bytes || !text.endsWith('\n')) throw new Error(`payload ${path} is not ${bytes} bytes of lines`);
  const crlf = text.replaceAll('\n', '\r\n');
  return { path, bytes, lines: crlf.length - bytes, crlf };
}
