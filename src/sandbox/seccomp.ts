/**
 * The seccomp filter given to bubblewrap (`--seccomp FD`): classic BPF over `struct seccomp_data`
 * { int nr; u32 arch; u64 ip; u64 args[6] }. It refuses `socket(AF_UNIX, …)`, so a sandboxed
 * command cannot reach a local daemon through its socket (the Docker socket, the session bus,
 * ssh-agent) and leave the sandbox that way; `socketpair` stays allowed (pipes between
 * processes). `io_uring_setup` is refused too (its socket operation would go around the rule;
 * programs fall back to plain calls). Abstract Unix sockets belong to a network namespace, which
 * the sandbox has of its own.
 */

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const AUDIT_ARCH_I386 = 0x40000003;
const X32_BIT = 0x40000000;
const ALLOW = 0x7fff0000;
const errno = (e: number) => (0x00050000 | e) >>> 0;
const EPERM = 1;
const ENOSYS = 38;
const AF_UNIX = 1;
const IO_URING_SETUP = 425; // the same number on every architecture since Linux 5.1

type Op = ['ld', number] | ['ret', number] | ['jeq', number, string];
type Line = Op | { label: string; op: Op };

const PROGRAM: Line[] = [
  ['ld', 4], // arch
  ['jeq', AUDIT_ARCH_X86_64, 'x86_64'],
  ['jeq', AUDIT_ARCH_AARCH64, 'aarch64'],
  ['jeq', AUDIT_ARCH_I386, 'i386'],
  ['ret', ALLOW],
  { label: 'x86_64', op: ['ld', 0] }, // nr
  ['jeq', 41, 'socket'],
  ['jeq', X32_BIT | 41, 'socket'],
  ['jeq', IO_URING_SETUP, 'nosys'],
  ['jeq', X32_BIT | IO_URING_SETUP, 'nosys'],
  ['ret', ALLOW],
  { label: 'aarch64', op: ['ld', 0] },
  ['jeq', 198, 'socket'],
  ['jeq', IO_URING_SETUP, 'nosys'],
  ['ret', ALLOW],
  // 32-bit programs on x86-64: socketcall multiplexes every socket call behind a pointer BPF cannot follow.
  { label: 'i386', op: ['ld', 0] },
  ['jeq', 102, 'perm'],
  ['jeq', 359, 'socket'],
  ['jeq', IO_URING_SETUP, 'nosys'],
  ['ret', ALLOW],
  { label: 'socket', op: ['ld', 16] }, // args[0], low 32 bits (little-endian): the domain
  ['jeq', AF_UNIX, 'perm'],
  ['ret', ALLOW],
  { label: 'perm', op: ['ret', errno(EPERM)] },
  { label: 'nosys', op: ['ret', errno(ENOSYS)] },
];

const BPF_LD_W_ABS = 0x20;
const BPF_JMP_JEQ_K = 0x15;
const BPF_RET_K = 0x06;

/** The filter as bubblewrap reads it: an array of 8-byte `struct sock_filter`, host byte order (little-endian). */
export function unixSocketFilter(): Buffer {
  const labels = new Map<string, number>();
  PROGRAM.forEach((l, i) => {
    if ('label' in l) labels.set(l.label, i);
  });
  const buf = Buffer.alloc(PROGRAM.length * 8);
  PROGRAM.forEach((l, i) => {
    const op = 'label' in l ? l.op : l;
    let code: number;
    let jt = 0;
    if (op[0] === 'ld') code = BPF_LD_W_ABS;
    else if (op[0] === 'ret') code = BPF_RET_K;
    else {
      code = BPF_JMP_JEQ_K;
      jt = labels.get(op[2])! - i - 1; // jump when equal; fall through (jf = 0) when not
    }
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(0, i * 8 + 3);
    buf.writeUInt32LE(op[1] >>> 0, i * 8 + 4);
  });
  return buf;
}
