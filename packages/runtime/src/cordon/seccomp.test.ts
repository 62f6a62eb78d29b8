import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SECCOMP_DENIED, seccompFilter, type SeccompArch } from "./seccomp.js";

const ARCH = { x86_64: 0xc000003e, aarch64: 0xc00000b7 } as const;
const ALLOW = 0x7fff0000;
const KILL_PROCESS = 0x80000000;
const errno = (n: number): number => 0x00050000 | n;
const EPERM = errno(1);
const ENOSYS = errno(38);

/** Runs a classic BPF seccomp program the way the kernel does, on one system call. */
function evaluate(program: Buffer, arch: number, nr: number, args: readonly number[] = []): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(nr >>> 0, 0);
  data.writeUInt32LE(arch >>> 0, 4);
  args.forEach((arg, i) => data.writeUInt32LE(arg >>> 0, 16 + 8 * i));
  let a = 0;
  for (let pc = 0; pc < program.length / 8;) {
    const op = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    switch (op) {
      case 0x20: // ld [k]
        if (k % 4 !== 0 || k + 4 > 64) throw new Error(`bad load ${k}`);
        a = data.readUInt32LE(k);
        pc += 1;
        break;
      case 0x15: // jeq
        pc += 1 + (a === k ? jt : jf);
        break;
      case 0x35: // jge
        pc += 1 + (a >= k ? jt : jf);
        break;
      case 0x45: // jset
        pc += 1 + ((a & k) !== 0 ? jt : jf);
        break;
      case 0x06: // ret
        return k;
      default:
        throw new Error(`unknown opcode ${op.toString(16)} at ${pc}`);
    }
  }
  throw new Error("fell off the end of the program");
}

const program = seccompFilter();
const arches: SeccompArch[] = ["x86_64", "aarch64"];

describe("seccompFilter", () => {
  it("is a whole number of instructions, short enough for the kernel (4096) and every jump short", () => {
    expect(program.length % 8).toBe(0);
    expect(program.length / 8).toBeLessThan(4096);
  });

  it.each(arches)("refuses each listed call on %s with its errno", (arch) => {
    for (const rule of SECCOMP_DENIED) {
      const expected = rule.action === "ENOSYS" ? ENOSYS : EPERM;
      const nr = rule.numbers[arch];
      if (rule.when === undefined) {
        expect(evaluate(program, ARCH[arch], nr, [0, 0]), rule.name).toBe(expected);
      } else if ("equals" in rule.when) {
        for (const value of rule.when.equals) {
          const args = rule.when.arg === 1 ? [1, value] : [value, 0];
          expect(evaluate(program, ARCH[arch], nr, args), `${rule.name} ${value}`).toBe(expected);
          // Only the listed values: the same call with another argument is allowed.
          const other = rule.when.arg === 1 ? [1, value + 1] : [value + 1, 0];
          expect(evaluate(program, ARCH[arch], nr, other)).toBe(ALLOW);
        }
      } else {
        const bits = rule.when.anyBits;
        expect(evaluate(program, ARCH[arch], nr, [bits | 0x11, 0])).toBe(expected);
        expect(evaluate(program, ARCH[arch], nr, [0x11, 0])).toBe(ALLOW);
      }
    }
  });

  it("refuses TIOCSTI and TIOCLINUX, new user namespaces and clone3 by their real numbers on x86_64", () => {
    expect(evaluate(program, ARCH.x86_64, 16, [0, 0x5412])).toBe(EPERM);
    expect(evaluate(program, ARCH.x86_64, 16, [0, 0x541c])).toBe(EPERM);
    expect(evaluate(program, ARCH.x86_64, 16, [0, 0x541b])).toBe(ALLOW); // FIONREAD
    expect(evaluate(program, ARCH.x86_64, 272, [0x10000000])).toBe(EPERM);
    expect(evaluate(program, ARCH.x86_64, 272, [0x04000000])).toBe(ALLOW); // CLONE_NEWUTS alone
    expect(evaluate(program, ARCH.x86_64, 435, [])).toBe(ENOSYS);
    expect(evaluate(program, ARCH.x86_64, 0, [])).toBe(ALLOW); // read
  });

  it("allows every call that is not listed, on both architectures", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...arches),
        fc.integer({ min: 0, max: 1023 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (arch, nr, args) => {
          fc.pre(!SECCOMP_DENIED.some((rule) => rule.numbers[arch] === nr));
          expect(evaluate(program, ARCH[arch], nr, args)).toBe(ALLOW);
        },
      ),
    );
  });

  it("kills a call made through any other ABI, and refuses x32 calls", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.nat(1023), (arch, nr) => {
        fc.pre(arch !== ARCH.x86_64 && arch !== ARCH.aarch64);
        expect(evaluate(program, arch, nr)).toBe(KILL_PROCESS);
      }),
    );
    expect(evaluate(program, 0x40000003, 26)).toBe(KILL_PROCESS); // i386 ptrace through int 0x80
    expect(evaluate(program, ARCH.x86_64, 0x40000000 + 101)).toBe(ENOSYS);
    expect(evaluate(program, ARCH.x86_64, 0x40000000 + 16, [0, 0x5412])).toBe(ENOSYS);
  });

  it("gives every rule a number on both architectures, and no number twice", () => {
    for (const arch of arches) {
      const numbers = SECCOMP_DENIED.map((rule) => rule.numbers[arch]);
      expect(new Set(numbers).size).toBe(numbers.length);
    }
  });
});
