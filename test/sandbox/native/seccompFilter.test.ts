import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSeccompFilter, DENIED_SYSCALLS, evaluateSeccompFilter } from '../../../src-main/node/sandbox/native/seccompFilter';
import { AUDIT_ARCH, SYSCALLS, type SeccompArch } from '../../../src-main/node/sandbox/native/syscallNumbers';

// The compiled program, run by a small classic-BPF interpreter: the policy checked for both architectures, this
// machine's included. (escapes.test.ts checks the same filter in the kernel, under bwrap.)
for (const arch of ['x64', 'arm64'] as SeccompArch[]) {
  describe(`seccomp filter (${arch})`, () => {
    const filter = compileSeccompFilter(arch);
    const nr = SYSCALLS[arch];
    const call = (name: keyof typeof nr, args: number[] = []) => evaluateSeccompFilter(filter, { arch: AUDIT_ARCH[arch], nr: nr[name]!, args });

    it('is a whole number of 8-byte sock_filter instructions, within the kernel limit', () => {
      assert.equal(filter.length % 8, 0);
      assert.ok(filter.length / 8 < 4096);
    });

    it('refuses unix sockets and allows the others', () => {
      assert.deepEqual(call('socket', [1, 1, 0]), { errno: 1 });
      assert.equal(call('socket', [2, 1, 0]), 'allow');
      assert.equal(call('socket', [10, 2, 0]), 'allow');
    });

    it('refuses every listed call with EPERM', () => {
      for (const name of DENIED_SYSCALLS) {
        if (nr[name] === undefined) continue;
        assert.deepEqual(call(name), { errno: 1 }, name);
      }
    });

    it('refuses clone with a new-namespace flag, allows a plain fork/thread clone, and sends clone3 to its fallback', () => {
      assert.deepEqual(call('clone', [0x10000000]), { errno: 1 }, 'CLONE_NEWUSER');
      assert.deepEqual(call('clone', [0x40000000 | 0x11]), { errno: 1 }, 'CLONE_NEWNET');
      assert.equal(call('clone', [0x01200011]), 'allow', 'fork as glibc does it');
      assert.equal(call('clone', [0x003d0f00]), 'allow', 'a thread');
      assert.deepEqual(call('clone3'), { errno: 38 });
    });

    it('refuses pushing input into the terminal, allows other ioctls', () => {
      assert.deepEqual(call('ioctl', [0, 0x5412]), { errno: 1 }, 'TIOCSTI');
      assert.equal(call('ioctl', [0, 0x5413]), 'allow', 'TIOCGWINSZ');
    });

    it('kills a call made under another architecture', () => {
      const other = arch === 'x64' ? AUDIT_ARCH.arm64 : AUDIT_ARCH.x64;
      assert.equal(evaluateSeccompFilter(filter, { arch: other, nr: 0 }), 'kill');
      assert.equal(evaluateSeccompFilter(filter, { arch: 0x40000003, nr: 0 }), 'kill', 'i386');
    });

    it('allows ordinary calls', () => {
      assert.equal(evaluateSeccompFilter(filter, { arch: AUDIT_ARCH[arch], nr: arch === 'x64' ? 0 : 63 }), 'allow', 'read');
    });
  });
}

describe('seccomp filter (x64 only)', () => {
  it('kills x32-ABI calls, which would otherwise slip past the numbers', () => {
    const filter = compileSeccompFilter('x64');
    assert.equal(evaluateSeccompFilter(filter, { arch: AUDIT_ARCH.x64, nr: 0x40000000 + 41, args: [1] }), 'kill');
  });
});
