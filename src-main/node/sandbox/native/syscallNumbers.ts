/**
 * System call numbers the seccomp filter names, per architecture. x86_64 has its own table; aarch64 uses the
 * generic one (include/uapi/asm-generic/unistd.h). A syscall missing from an architecture is simply not listed.
 */
export type SeccompArch = 'x64' | 'arm64';

/** AUDIT_ARCH_* values as seccomp_data.arch reports them. */
export const AUDIT_ARCH: Record<SeccompArch, number> = {
  x64: 0xc000003e,
  arm64: 0xc00000b7,
};

export type SyscallName =
  | 'socket' | 'ioctl' | 'clone' | 'clone3'
  | 'ptrace' | 'process_vm_readv' | 'process_vm_writev'
  | 'mount' | 'umount2' | 'pivot_root' | 'chroot' | 'fsopen' | 'fsconfig' | 'fsmount' | 'fspick' | 'open_tree' | 'move_mount' | 'mount_setattr'
  | 'unshare' | 'setns'
  | 'keyctl' | 'add_key' | 'request_key'
  | 'bpf' | 'perf_event_open' | 'userfaultfd' | 'open_by_handle_at'
  | 'kexec_load' | 'kexec_file_load' | 'init_module' | 'finit_module' | 'delete_module'
  | 'io_uring_setup' | 'io_uring_enter' | 'io_uring_register'
  | 'swapon' | 'swapoff' | 'reboot' | 'syslog' | 'acct' | 'quotactl' | 'uselib';

export const SYSCALLS: Record<SeccompArch, Partial<Record<SyscallName, number>>> = {
  x64: {
    socket: 41, ioctl: 16, clone: 56, clone3: 435,
    ptrace: 101, process_vm_readv: 310, process_vm_writev: 311,
    mount: 165, umount2: 166, pivot_root: 155, chroot: 161, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, open_tree: 428, move_mount: 429, mount_setattr: 442,
    unshare: 272, setns: 308,
    keyctl: 250, add_key: 248, request_key: 249,
    bpf: 321, perf_event_open: 298, userfaultfd: 323, open_by_handle_at: 304,
    kexec_load: 246, kexec_file_load: 320, init_module: 175, finit_module: 313, delete_module: 176,
    io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
    swapon: 167, swapoff: 168, reboot: 169, syslog: 103, acct: 163, quotactl: 179, uselib: 134,
  },
  arm64: {
    socket: 198, ioctl: 29, clone: 220, clone3: 435,
    ptrace: 117, process_vm_readv: 270, process_vm_writev: 271,
    mount: 40, umount2: 39, pivot_root: 41, chroot: 51, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, open_tree: 428, move_mount: 429, mount_setattr: 442,
    unshare: 97, setns: 268,
    keyctl: 219, add_key: 217, request_key: 218,
    bpf: 280, perf_event_open: 241, userfaultfd: 282, open_by_handle_at: 265,
    kexec_load: 104, kexec_file_load: 294, init_module: 105, finit_module: 273, delete_module: 106,
    io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
    swapon: 224, swapoff: 225, reboot: 142, syslog: 116, acct: 89, quotactl: 60,
  },
};
