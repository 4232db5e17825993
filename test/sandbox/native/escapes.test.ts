import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createNativeSandbox } from '../../../src-main/node/sandbox/native/nativeSandbox';
import { runSandboxed, shPolicy } from './runSandboxed';

// A home of our own with secrets in it, so the test neither reads nor plants anything in the real one
// (os.homedir() follows $HOME, and the sandbox hides the secrets of the home it sees).
const root = realpathSync(mkdtempSync(join(tmpdir(), 'omni-native-escapes-')));
const home = join(root, 'home');
mkdirSync(join(home, '.ssh'), { recursive: true });
writeFileSync(join(home, '.ssh', 'id_canary'), 'CANARY-PRIVATE-KEY');
mkdirSync(join(home, '.aws'));
writeFileSync(join(home, '.aws', 'credentials'), 'CANARY-AWS-SECRET');
process.env.HOME = home;
const workspace = join(home, 'project');
mkdirSync(workspace);
const outside = join(root, 'outside');
mkdirSync(outside);

const sandbox = createNativeSandbox();

describe('native sandbox: escapes are contained', () => {
  let loopback: Server;
  let loopbackPort = 0;
  before(async () => {
    loopback = createServer((_req, res) => res.end('HOST-LOOPBACK-SERVICE'));
    await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
    loopbackPort = (loopback.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise<void>((resolve) => loopback.close(() => resolve()));
    rmSync(root, { recursive: true, force: true });
  });

  it('a run writes its workspace, and nothing outside it', async () => {
    const result = await runSandboxed(
      sandbox,
      shPolicy(workspace, `echo inside > inside.txt; echo x > ${outside}/escaped.txt; echo x > ${home}/escaped.txt; echo x > /usr/escaped.txt; echo done`),
    );
    assert.equal(result.code, 0, result.output);
    assert.ok(existsSync(join(workspace, 'inside.txt')), 'the workspace write landed');
    assert.equal(existsSync(join(outside, 'escaped.txt')), false, 'no write beside the workspace');
    assert.equal(existsSync(join(home, 'escaped.txt')), false, 'no write into the home');
    assert.equal(existsSync('/usr/escaped.txt'), false, 'no write into the system');
    assert.match(result.output, /Read-only file system|No such file or directory/);
  });

  it("the workspace's .meta (the host's context and session files) is read-only to the run", async () => {
    mkdirSync(join(workspace, '.meta'), { recursive: true });
    writeFileSync(join(workspace, '.meta', 'context.md'), 'CONTEXT');
    const result = await runSandboxed(sandbox, shPolicy(workspace, 'cat .meta/context.md; echo; echo forged > .meta/context.md; echo x > .meta/session.json; echo done'));
    assert.match(result.output, /^CONTEXT$/m);
    assert.match(result.output, /Read-only file system/);
    assert.equal(readFileSync(join(workspace, '.meta', 'context.md'), 'utf8'), 'CONTEXT');
    assert.equal(existsSync(join(workspace, '.meta', 'session.json')), false);
  });

  it('secrets in the home cannot be read, and the home the run sees is empty', async () => {
    const result = await runSandboxed(sandbox, shPolicy(workspace, `cat ${home}/.ssh/id_canary ${home}/.aws/credentials; ls -A ${home}; echo "home=$HOME"`));
    assert.doesNotMatch(result.output, /CANARY/);
    assert.match(result.output, /No such file or directory/);
    assert.match(result.output, /^project$/m, 'only the workspace shows in the home');
  });

  it('when the workspace is the home itself, its secrets directories are hidden', async () => {
    const result = await runSandboxed(sandbox, shPolicy(home, 'cat .ssh/id_canary; cat .aws/credentials; ls -A .ssh | wc -l; echo new > .ssh/planted'));
    assert.doesNotMatch(result.output, /CANARY/);
    assert.match(result.output, /^0$/m, '.ssh looks empty');
    assert.equal(existsSync(join(home, '.ssh', 'planted')), false);
  });

  it('a read-only shared folder is readable, not writable, and cannot be a secret place in disguise', async () => {
    const shared = join(root, 'shared');
    mkdirSync(shared);
    writeFileSync(join(shared, 'tool.sh'), 'echo tool ran');
    const result = await runSandboxed(sandbox, shPolicy(workspace, `sh ${shared}/tool.sh; echo x > ${shared}/planted`, { readOnlyPaths: [shared] }));
    assert.match(result.output, /^tool ran$/m);
    assert.match(result.output, /Read-only file system/);
    assert.equal(existsSync(join(shared, 'planted')), false);
    symlinkSync(join(home, '.ssh'), join(root, 'innocent'));
    await assert.rejects(sandbox.prepareLaunch(shPolicy(workspace, 'true', { readOnlyPaths: [join(root, 'innocent')] })), /would show .*\.ssh, a place secrets live/);
    await assert.rejects(sandbox.prepareLaunch(shPolicy(workspace, 'true', { readOnlyPaths: [home] })), /would show .*, a place secrets live/);
  });

  it("the system's own secrets are not there (/etc/shadow, ssh host keys)", async () => {
    const result = await runSandboxed(sandbox, shPolicy(workspace, 'cat /etc/shadow; ls /etc/ssh; echo "passwd lines: $(wc -l < /etc/passwd)"'));
    assert.match(result.output, /\/etc\/shadow: No such file or directory/);
    assert.match(result.output, /\/etc\/ssh': No such file or directory|cannot access '\/etc\/ssh'/);
    assert.match(result.output, /passwd lines: [1-9]/, 'what programs need of /etc is there');
  });

  it('a unix socket cannot be created (python and node both get EPERM)', async () => {
    const python = await runSandboxed(sandbox, {
      ...shPolicy(workspace, ''),
      argv: ['python3', '-c', 'import socket\ntry:\n socket.socket(socket.AF_UNIX)\n print("UNIX SOCKET CREATED")\nexcept PermissionError as e:\n print("refused", e.errno)\nsocket.socket(socket.AF_INET); print("inet ok")'],
    });
    assert.match(python.output, /refused 1/);
    assert.match(python.output, /inet ok/, 'other sockets still work');
    const node = await runSandboxed(sandbox, {
      ...shPolicy(workspace, ''),
      argv: ['node', '-e', 'require("net").createServer().listen("/tmp/s.sock").on("error", (e) => console.log("refused", e.code)).on("listening", () => { console.log("UNIX SOCKET LISTENING"); process.exit(0); })'],
    });
    assert.match(node.output, /refused EPERM/);
  });

  it("the host's loopback services are unreachable", async () => {
    assert.equal(await (await fetch(`http://127.0.0.1:${loopbackPort}/`)).text(), 'HOST-LOOPBACK-SERVICE', 'the service is up on the host');
    const result = await runSandboxed(sandbox, shPolicy(workspace, `curl -sS -m 5 http://127.0.0.1:${loopbackPort}/; echo "rc=$?"`));
    assert.doesNotMatch(result.output, /HOST-LOOPBACK-SERVICE/);
    assert.match(result.output, /rc=7/, 'connection refused: nothing listens on the sandbox’s own loopback');
  });

  it('nested namespaces, mounts and ptrace are refused', async () => {
    const result = await runSandboxed(
      sandbox,
      shPolicy(workspace, 'unshare -U true; echo "unshare=$?"; unshare -n true; echo "unshare-net=$?"; mount -t tmpfs none /tmp; echo "mount=$?"; python3 -c "import ctypes; print(\'ptrace\', ctypes.CDLL(None, use_errno=True).ptrace(16, 1, 0, 0), ctypes.get_errno())"'),
    );
    assert.match(result.output, /unshare=1/);
    assert.match(result.output, /unshare-net=1/);
    assert.match(result.output, /mount=(1|32)/);
    assert.match(result.output, /ptrace -1 1/, 'PTRACE_ATTACH fails with EPERM');
  });

  it('a descriptor the host leaked to the spawned process does not reach the command', async () => {
    const launch = await sandbox.prepareLaunch(shPolicy(workspace, 'ls /proc/self/fd | tr "\\n" " "; echo escaped >&5 && echo "fd5 writable"'));
    try {
      // fd 5: a pipe the spawned process inherits (as from a careless parent), read here on the host.
      const child = spawn(launch.argv[0], launch.argv.slice(1), { env: launch.env, cwd: launch.cwd, stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'ignore', 'pipe'] });
      let output = '';
      let leaked = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      (child.stdio as unknown as NodeJS.ReadableStream[])[5].on('data', (chunk) => (leaked += chunk));
      await new Promise((resolve) => child.on('close', resolve));
      assert.equal(leaked, '', 'nothing came out through the leaked pipe');
      assert.doesNotMatch(output, /fd5 writable/);
      assert.ok(output.startsWith('0 1 2 3 '), `only stdin, stdout, stderr (and ls’s own directory handle): ${output}`);
      assert.match(output, /5: Bad file descriptor/);
    } finally {
      launch.dispose?.();
    }
  });

  it('a shell, coreutils, python3 and node run normally inside', async () => {
    const result = await runSandboxed(
      sandbox,
      shPolicy(workspace, 'printf "b\\na\\n" | sort | tr a-z A-Z; python3 -c "import json; print(json.dumps({\\"ok\\": 1}))"; node -e "console.log(require(\\"os\\").cpus().length > 0)"; echo "$(id -u) $PWD"'),
    );
    assert.equal(result.code, 0, result.output);
    assert.match(result.output, /^A\nB\n\{"ok": 1\}\ntrue\n\d+ .*project\n$/);
  });
});
