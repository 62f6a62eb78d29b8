/**
 * The cordon's seccomp filter: a classic BPF program, built here byte by byte, that bubblewrap installs
 * (`--seccomp FD`) just before it starts the command. It refuses the system calls a confined command has no
 * business making and that would let it reach past the sandbox: injecting keystrokes into a terminal, tracing
 * other processes, the kernel keyring, loading BPF, performance counters, userfaultfd, new user namespaces and
 * mounts. Everything else is allowed.
 */

/** A CPU architecture the filter knows the system call numbers of. */
export type SeccompArch = "x86_64" | "aarch64";

/** What a denied call returns. */
export type SeccompAction = "EPERM" | "ENOSYS";

/** One denied system call, per architecture. */
export interface SeccompRule {
  /** System call name (as in `man 2`). */
  name: string;
  /** Its number on each architecture. */
  numbers: Record<SeccompArch, number>;
  /** Why it is denied. */
  reason: string;
  /**
   * Deny only when the argument matches: `ioctl` with these request numbers (argument 1), `clone`/`unshare`
   * with these flag bits (argument 0). Without it the call is always denied.
   */
  when?: { arg: 0 | 1; equals: readonly number[] } | { arg: 0 | 1; anyBits: number };
  /** Errno returned (default `EPERM`). */
  action?: SeccompAction;
}

const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const CLONE_NEWUSER = 0x10000000;

const mountReason = "mounts: the sandbox's view of the file system is fixed";

/** The calls the cordon refuses. Numbers: x86_64 from `arch/x86/entry/syscalls`, aarch64 from `asm-generic`. */
export const SECCOMP_DENIED: readonly SeccompRule[] = [
  {
    name: "ioctl",
    numbers: { x86_64: 16, aarch64: 29 },
    when: { arg: 1, equals: [TIOCSTI, TIOCLINUX] },
    reason: "TIOCSTI / TIOCLINUX push keystrokes into a terminal the person later reads",
  },
  { name: "ptrace", numbers: { x86_64: 101, aarch64: 117 }, reason: "tracing another process" },
  {
    name: "process_vm_readv",
    numbers: { x86_64: 310, aarch64: 270 },
    reason: "reading another process's memory",
  },
  {
    name: "process_vm_writev",
    numbers: { x86_64: 311, aarch64: 271 },
    reason: "writing another process's memory",
  },
  { name: "keyctl", numbers: { x86_64: 250, aarch64: 219 }, reason: "the kernel keyring holds credentials" },
  { name: "add_key", numbers: { x86_64: 248, aarch64: 217 }, reason: "the kernel keyring" },
  { name: "request_key", numbers: { x86_64: 249, aarch64: 218 }, reason: "the kernel keyring" },
  { name: "bpf", numbers: { x86_64: 321, aarch64: 280 }, reason: "loading BPF programs into the kernel" },
  {
    name: "perf_event_open",
    numbers: { x86_64: 298, aarch64: 241 },
    reason: "performance counters leak other processes' activity",
  },
  {
    name: "userfaultfd",
    numbers: { x86_64: 323, aarch64: 282 },
    reason: "a common tool of kernel exploits",
  },
  {
    name: "unshare",
    numbers: { x86_64: 272, aarch64: 97 },
    when: { arg: 0, anyBits: CLONE_NEWUSER },
    reason: "a new user namespace gives back capabilities inside it",
  },
  {
    name: "clone",
    numbers: { x86_64: 56, aarch64: 220 },
    when: { arg: 0, anyBits: CLONE_NEWUSER },
    reason: "a new user namespace gives back capabilities inside it",
  },
  {
    name: "clone3",
    numbers: { x86_64: 435, aarch64: 435 },
    action: "ENOSYS",
    reason: "its flags live in memory a filter cannot read; ENOSYS makes the C library fall back to clone",
  },
  { name: "setns", numbers: { x86_64: 308, aarch64: 268 }, reason: "joining another namespace" },
  { name: "mount", numbers: { x86_64: 165, aarch64: 40 }, reason: mountReason },
  { name: "umount2", numbers: { x86_64: 166, aarch64: 39 }, reason: mountReason },
  { name: "pivot_root", numbers: { x86_64: 155, aarch64: 41 }, reason: mountReason },
  { name: "open_tree", numbers: { x86_64: 428, aarch64: 428 }, reason: mountReason },
  { name: "move_mount", numbers: { x86_64: 429, aarch64: 429 }, reason: mountReason },
  { name: "fsopen", numbers: { x86_64: 430, aarch64: 430 }, reason: mountReason },
  { name: "fsconfig", numbers: { x86_64: 431, aarch64: 431 }, reason: mountReason },
  { name: "fsmount", numbers: { x86_64: 432, aarch64: 432 }, reason: mountReason },
  { name: "fspick", numbers: { x86_64: 433, aarch64: 433 }, reason: mountReason },
  { name: "mount_setattr", numbers: { x86_64: 442, aarch64: 442 }, reason: mountReason },
  ...(["io_uring_setup", "io_uring_enter", "io_uring_register"] as const).map((name, index): SeccompRule => ({
    name,
    numbers: { x86_64: 425 + index, aarch64: 425 + index },
    action: "ENOSYS",
    reason:
      "io_uring does its work in kernel threads, out of this filter's sight, and is a common tool of kernel exploits; ENOSYS makes programs fall back to ordinary calls",
  })),
];

/** `AUDIT_ARCH_*` values the kernel puts in `seccomp_data.arch`. */
const AUDIT_ARCH: Record<SeccompArch, number> = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };
/** System calls of the x32 ABI carry this bit on x86_64 and would bypass the numbers above. */
const X32_SYSCALL_BIT = 0x40000000;

// Classic BPF opcodes (linux/bpf_common.h) and seccomp return values (linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_KILL_PROCESS = 0x80000000;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const ERRNO: Record<SeccompAction, number> = { EPERM: 1, ENOSYS: 38 };

// Offsets in struct seccomp_data: nr (u32), arch (u32), instruction_pointer (u64), args[6] (u64, little endian).
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const argLow = (index: number): number => 16 + 8 * index;

/** One instruction, jumps still naming labels. */
type Step = { op: number; k: number; jt?: string; jf?: string } | { label: string } | { ret: number };

/** Lays out the steps and resolves label jumps to the forward offsets BPF wants (at most 255). */
function assemble(steps: readonly Step[]): Buffer {
  const code: { op: number; k: number; jt?: string; jf?: string }[] = [];
  const labels = new Map<string, number>();
  for (const step of steps) {
    if ("label" in step) labels.set(step.label, code.length);
    else if ("ret" in step) code.push({ op: RET_K, k: step.ret });
    else code.push(step);
  }
  const out = Buffer.alloc(code.length * 8);
  code.forEach((instruction, index) => {
    const offset = (label: string | undefined): number => {
      if (label === undefined) return 0;
      const target = labels.get(label);
      if (target === undefined) throw new Error(`seccomp: no label ${label}`);
      const jump = target - index - 1;
      if (jump < 0 || jump > 255) throw new Error(`seccomp: jump to ${label} out of range`);
      return jump;
    };
    out.writeUInt16LE(instruction.op, index * 8);
    out.writeUInt8(offset(instruction.jt), index * 8 + 2);
    out.writeUInt8(offset(instruction.jf), index * 8 + 3);
    out.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return out;
}

function archSection(arch: SeccompArch, rules: readonly SeccompRule[]): Step[] {
  const steps: Step[] = [{ label: arch }, { op: LD_W_ABS, k: OFFSET_NR }];
  const conditional: Step[] = [];
  if (arch === "x86_64") {
    // BPF jumps only forward: the refusal sits with the other returns after the rule checks.
    steps.push({ op: JGE_K, k: X32_SYSCALL_BIT, jt: `${arch}-x32`, jf: `${arch}-0` });
    conditional.push({ label: `${arch}-x32` }, { ret: RET_ERRNO | ERRNO.ENOSYS });
  }
  rules.forEach((rule, index) => {
    const here = `${arch}-${index}`;
    const next = `${arch}-${index + 1}`;
    const action = RET_ERRNO | ERRNO[rule.action ?? "EPERM"];
    steps.push({ label: here });
    if (rule.when === undefined) {
      steps.push({ op: JEQ_K, k: rule.numbers[arch], jt: `${arch}-ret-${index}`, jf: next });
      conditional.push({ label: `${arch}-ret-${index}` }, { ret: action });
      return;
    }
    const check = `${arch}-check-${index}`;
    steps.push({ op: JEQ_K, k: rule.numbers[arch], jt: check, jf: next });
    conditional.push({ label: check }, { op: LD_W_ABS, k: argLow(rule.when.arg) });
    const denyHere = `${arch}-ret-${index}`;
    if ("equals" in rule.when) {
      for (const value of rule.when.equals)
        conditional.push(
          { op: JEQ_K, k: value, jt: denyHere, jf: `${check}-${value}` },
          { label: `${check}-${value}` },
        );
    } else {
      conditional.push(
        { op: JSET_K, k: rule.when.anyBits, jt: denyHere, jf: `${check}-none` },
        { label: `${check}-none` },
      );
    }
    conditional.push({ ret: RET_ALLOW }, { label: denyHere }, { ret: action });
  });
  steps.push({ label: `${arch}-${rules.length}` }, { ret: RET_ALLOW }, ...conditional);
  return steps;
}

/**
 * The filter as bubblewrap reads it from `--seccomp FD`: an array of `struct sock_filter` (8 bytes each,
 * little endian). It first checks `seccomp_data.arch`: a call made through any other ABI (32-bit x86 on an
 * x86_64 kernel, say) kills the process, since the numbers would mean other calls; x32 calls get `ENOSYS`.
 * Then each {@link SECCOMP_DENIED} call returns its errno; `ioctl`, `clone` and `unshare` only for the
 * argument values named in the rule.
 */
export function seccompFilter(rules: readonly SeccompRule[] = SECCOMP_DENIED): Buffer {
  const steps: Step[] = [
    { op: LD_W_ABS, k: OFFSET_ARCH },
    { op: JEQ_K, k: AUDIT_ARCH.x86_64, jt: "x86_64", jf: "not-x86_64" },
    { label: "not-x86_64" },
    { op: JEQ_K, k: AUDIT_ARCH.aarch64, jt: "aarch64", jf: "foreign" },
    { label: "foreign" },
    { ret: RET_KILL_PROCESS },
    ...archSection("x86_64", rules),
    ...archSection("aarch64", rules),
  ];
  return assemble(steps);
}
