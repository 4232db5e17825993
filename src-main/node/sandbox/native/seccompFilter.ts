import { AUDIT_ARCH, SYSCALLS, type SeccompArch, type SyscallName } from './syscallNumbers';

/**
 * The seccomp filter every sandboxed command runs under, compiled here to classic BPF (struct sock_filter: u16 code,
 * u8 jt, u8 jf, u32 k, little-endian) for `bwrap --seccomp FD`. A call from another architecture (or the x32 ABI)
 * kills the process; the calls below fail with EPERM (or ENOSYS for clone3, so libc falls back to clone, whose flags
 * a filter can see); everything else is allowed. The namespaces, the read-only mounts and the dropped capabilities
 * do most of the isolating: this closes the ways out of them (new namespaces, mounts, ptrace, the kernel's keyring,
 * bpf, io_uring) and the unix-socket route to services on the host.
 */

/** Refused outright with EPERM: each a way to widen or leave the sandbox, or kernel attack surface a command does not need. */
export const DENIED_SYSCALLS: readonly SyscallName[] = [
  'ptrace', 'process_vm_readv', 'process_vm_writev',
  'mount', 'umount2', 'pivot_root', 'chroot', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'open_tree', 'move_mount', 'mount_setattr',
  'unshare', 'setns',
  'keyctl', 'add_key', 'request_key',
  'bpf', 'perf_event_open', 'userfaultfd', 'open_by_handle_at',
  'kexec_load', 'kexec_file_load', 'init_module', 'finit_module', 'delete_module',
  'io_uring_setup', 'io_uring_enter', 'io_uring_register',
  'swapon', 'swapoff', 'reboot', 'syslog', 'acct', 'quotactl', 'uselib',
];

const AF_UNIX = 1;
/** ioctls that push input into the terminal (TIOCSTI) or drive the console (TIOCLINUX): a way to type into the user's shell. */
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
/** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET | NEWTIME. */
const CLONE_NEW_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080;
const X32_SYSCALL_BIT = 0x40000000;

const EPERM = 1;
const ENOSYS = 38;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const retErrno = (errno: number) => 0x00050000 | errno;

// Classic BPF opcodes (linux/filter.h).
const LD_W_ABS = 0x20;
const JMP_JEQ_K = 0x15;
const JMP_JGE_K = 0x35;
const JMP_JSET_K = 0x45;
const RET_K = 0x06;

// Offsets into struct seccomp_data: int nr; u32 arch; u64 ip; u64 args[6]. Arguments are read by their low 32 bits
// (little-endian), which is all the kernel looks at for an int domain, an unsigned int ioctl request or clone flags.
const NR = 0;
const ARCH = 4;
const argLow = (index: number) => 16 + 8 * index;

/** One instruction of the program; jumps name their targets (a label placed on an instruction), null = the next one. */
interface Instruction {
  code: number;
  k: number;
  jt?: string | null;
  jf?: string | null;
  /** A name other instructions jump to. */
  label?: string;
}

export function seccompArch(arch: string = process.arch): SeccompArch | null {
  return arch === 'x64' || arch === 'arm64' ? arch : null;
}

function program(arch: SeccompArch): Instruction[] {
  const nr = SYSCALLS[arch];
  const out: Instruction[] = [
    { code: LD_W_ABS, k: ARCH },
    { code: JMP_JEQ_K, k: AUDIT_ARCH[arch], jt: null, jf: 'kill' },
    { code: LD_W_ABS, k: NR },
  ];
  if (arch === 'x64') out.push({ code: JMP_JGE_K, k: X32_SYSCALL_BIT, jt: 'kill', jf: null });
  for (const name of DENIED_SYSCALLS) {
    const number = nr[name];
    if (number !== undefined) out.push({ code: JMP_JEQ_K, k: number, jt: 'eperm', jf: null });
  }
  out.push(
    { code: JMP_JEQ_K, k: nr.clone3!, jt: 'enosys', jf: null },
    // ioctl(fd, TIOCSTI | TIOCLINUX, ...)
    { code: JMP_JEQ_K, k: nr.ioctl!, jt: null, jf: 'clone' },
    { code: LD_W_ABS, k: argLow(1) },
    { code: JMP_JEQ_K, k: TIOCSTI, jt: 'eperm', jf: null },
    { code: JMP_JEQ_K, k: TIOCLINUX, jt: 'eperm', jf: 'allow' },
    // clone(flags, ...) asking for any new namespace
    { label: 'clone', code: JMP_JEQ_K, k: nr.clone!, jt: null, jf: 'socket' },
    { code: LD_W_ABS, k: argLow(0) },
    { code: JMP_JSET_K, k: CLONE_NEW_NAMESPACES, jt: 'eperm', jf: 'allow' },
    // socket(AF_UNIX, ...)
    { label: 'socket', code: JMP_JEQ_K, k: nr.socket!, jt: null, jf: 'allow' },
    { code: LD_W_ABS, k: argLow(0) },
    { code: JMP_JEQ_K, k: AF_UNIX, jt: 'eperm', jf: 'allow' },
    { label: 'allow', code: RET_K, k: RET_ALLOW },
    { label: 'eperm', code: RET_K, k: retErrno(EPERM) },
    { label: 'enosys', code: RET_K, k: retErrno(ENOSYS) },
    { label: 'kill', code: RET_K, k: RET_KILL_PROCESS },
  );
  return out;
}

function assemble(arch: SeccompArch): { code: number; jt: number; jf: number; k: number }[] {
  const instructions = program(arch);
  const at = new Map<string, number>();
  instructions.forEach((ins, i) => ins.label && at.set(ins.label, i));
  const offset = (from: number, target: string | null | undefined): number => {
    if (target === null || target === undefined) return 0;
    const distance = at.get(target)! - from - 1;
    if (!(distance >= 0 && distance <= 255)) throw new Error(`seccomp filter: jump to ${target} out of range (${distance})`);
    return distance;
  };
  return instructions.map((ins, i) => ({ code: ins.code, jt: offset(i, ins.jt), jf: offset(i, ins.jf), k: ins.k >>> 0 }));
}

/** The compiled filter for `arch`, ready to be written to the file descriptor bwrap reads with --seccomp. */
export function compileSeccompFilter(arch: SeccompArch): Buffer {
  const program = assemble(arch);
  const out = Buffer.alloc(program.length * 8);
  program.forEach((ins, i) => {
    out.writeUInt16LE(ins.code, i * 8);
    out.writeUInt8(ins.jt, i * 8 + 2);
    out.writeUInt8(ins.jf, i * 8 + 3);
    out.writeUInt32LE(ins.k, i * 8 + 4);
  });
  return out;
}

/**
 * What the filter answers for one call, by running the compiled program (a tiny classic-BPF interpreter): lets a
 * test check the policy for another architecture than this machine's.
 */
export function evaluateSeccompFilter(filter: Buffer, data: { arch: number; nr: number; args?: number[] }): 'allow' | 'kill' | { errno: number } {
  const word = (offset: number): number => {
    if (offset === NR) return data.nr >>> 0;
    if (offset === ARCH) return data.arch >>> 0;
    const index = (offset - 16) / 8;
    return (data.args?.[index] ?? 0) >>> 0;
  };
  let acc = 0;
  for (let pc = 0; pc < filter.length / 8; pc++) {
    const code = filter.readUInt16LE(pc * 8);
    const jt = filter.readUInt8(pc * 8 + 2);
    const jf = filter.readUInt8(pc * 8 + 3);
    const k = filter.readUInt32LE(pc * 8 + 4);
    if (code === LD_W_ABS) acc = word(k);
    else if (code === JMP_JEQ_K) pc += acc === k ? jt : jf;
    else if (code === JMP_JGE_K) pc += acc >= k ? jt : jf;
    else if (code === JMP_JSET_K) pc += (acc & k) !== 0 ? jt : jf;
    else if (code === RET_K) {
      if (k === RET_ALLOW) return 'allow';
      if (k === RET_KILL_PROCESS) return 'kill';
      return { errno: k & 0xffff };
    } else throw new Error(`unknown BPF opcode ${code}`);
  }
  throw new Error('the filter fell off its end');
}
