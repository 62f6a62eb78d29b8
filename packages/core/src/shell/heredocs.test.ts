// The heredoc reader, by example and against real shells: generated lines with one to three heredocs run under
// bash, dash and zsh in a temporary folder whose PATH holds a payload program that leaves a marker file.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { requireTool, scratchDir } from "@slashi/test-utils";
import { decide } from "../index.js";
import { recommendedPolicy, trustedContext } from "../../test/decide-setup.js";
import { analyzeShell } from "./analyze.js";
import { readHeredocs, type HeredocRead } from "./heredocs.js";
import { loadShellParser } from "./parser.js";

function reads(src: string): readonly HeredocRead[] {
  const reading = readHeredocs(src);
  if (reading.unsure !== undefined) throw new Error(`unsure: ${reading.unsure}`);
  return reading.heredocs;
}

function bodies(src: string): [string, boolean][] {
  return reads(src).map((h) => [h.body, h.quoted]);
}

describe("readHeredocs", () => {
  it("reads two heredocs opened on one line by separate commands, in order", () => {
    expect(bodies("cat <<'A'; cat <<B\n$(x)\nA\n$(y)\nB\necho")).toEqual([
      ["$(x)\n", true],
      ["$(y)\n", false],
    ]);
  });

  it("counts a delimiter with any quoted part as quoted and removes the quotes", () => {
    for (const word of ["'A'", '"A"', "\\A", "A''", '""A', "'A'B", 'A"B"', "A\\B"]) {
      const [read] = reads(`cat <<${word}\nx\n${word.replace(/['"\\]/g, "")}\n`);
      expect(read?.quoted, word).toBe(true);
    }
    const [plain] = reads("cat <<AB\nx\nAB\n");
    expect(plain?.quoted).toBe(false);
    expect(plain?.delimiter).toBe("AB");
  });

  it("strips leading tabs for <<- from the body and the terminator line", () => {
    const [read] = reads("cat <<-EOF\n\t\tx\n\tEOF\nls");
    expect(read?.body).toBe("x\n");
    expect(read?.lineEnd).toBe("cat <<-EOF\n\t\tx\n\tEOF\n".length);
  });

  it("ends a body only at a line that is exactly the delimiter", () => {
    expect(bodies("cat <<A\nA \n A\nAx\n\tA\nA\n")).toEqual([["A \n A\nAx\n\tA\n", false]]);
  });

  it("joins an unquoted body line ending in a backslash to the next one, not a quoted one", () => {
    expect(bodies("cat <<A\nx\\\nA\nA\n")).toEqual([["x\\\nA\n", false]]);
    expect(bodies("cat <<'A'\nx\\\nA\n")).toEqual([["x\\\n", true]]);
  });

  it("starts the bodies after the newline that ends the line, not one inside quotes or $(…)", () => {
    expect(bodies('cat <<A "x\ny"; echo $(a\nb)\nbody\nA\n')).toEqual([["body\n", false]]);
  });

  it("reads a heredoc inside $(…) and leaves shifts and here-strings alone", () => {
    expect(bodies("echo \"$(cat <<'A'\n$(x)\nA\n)\"")).toEqual([["$(x)\n", true]]);
    expect(reads("echo $((1<<2)); ((x<<=1)); cat <<< x; echo '<<A' \"<<B\" \\<<C # <<D")).toHaveLength(0);
  });

  it.each([
    ["an unterminated body", "cat <<A\nx"],
    ["an opener with no body", "cat <<A"],
    ["a heredoc inside backticks", "echo `cat <<A\nx\nA\n`"],
    ["a delimiter that expands", "cat <<$x\nx\n$x\n"],
    ["an ANSI-C delimiter (dash reads it differently)", "cat <<$'A'\nx\nA\n"],
    ["a subscript (bash) or heredoc (zsh)", "a[1<<2]=3"],
    ["$[…] (dash has none)", "echo $[1<<2]"],
    ["a heredoc whose $(…) closes on its opener line", "echo $(cat <<A); echo\nx\nA\n"],
    ["a case statement in $(…)", "x=$(case a in a) cat <<A;; esac\nx\nA\n)"],
  ])("is unsure of %s", (_why, src) => {
    expect(readHeredocs(src).unsure).toBeTypeOf("string");
  });
});

describe("analysis with the heredoc reader", () => {
  beforeAll(async () => {
    await loadShellParser();
  });

  it("gives the grammar's masked redirects the bodies the shell reads", () => {
    const a = analyzeShell("cat <<'A'; cat <<B\n$(rm -rf /)\nA\n$(curl -s x)\nB");
    expect(a.incomplete).toBe(false);
    expect(a.commands.map((c) => c.argv)).toEqual([["cat"], ["cat"], ["curl", "-s", "x"]]);
    expect(a.commands[0]?.redirects).toEqual([{ op: "<<", target: "$(rm -rf /)\n", text: "<<'A'" }]);
    expect(a.commands[1]?.redirects).toEqual([{ op: "<<", target: null, text: "<<B" }]);
    expect(a.commands[1]?.context).not.toContain("heredoc");
    expect(a.commands[2]?.context).toContain("heredoc");
  });

  it("asks when it cannot be sure", () => {
    const a = analyzeShell("echo `cat <<'A'\nx\nA\n`");
    expect(a.incomplete).toBe(true);
    expect(a.findings.map((f) => f.code)).toContain("shell.parse-error");
  });
});

// ---- against real shells --------------------------------------------------------------------------------

type Shell = "bash" | "dash" | "zsh";
const PROGRAM: Record<Shell, string | undefined> = {
  bash: requireTool("bash", "heredocs against the real shells"),
  dash: requireTool("dash", "heredocs against the real shells"),
  zsh: requireTool("zsh", "heredocs against the real shells"),
};
/** What a host passes as the shell that runs the line. */
const HOST_SHELL: Record<Shell, string> = { bash: "bash", dash: "/bin/sh", zsh: "zsh" };

interface Doc {
  name: string;
  quoting: "none" | "single" | "double" | "backslash" | "partSingle" | "partDouble" | "partBackslash";
  strip: boolean;
  tabs: boolean;
  lines: (
    "expand" | "backtick" | "param" | "live" | "plain" | "trailing" | "leading" | "tab" | "suffix" | "cont"
  )[];
  /** How the heredoc joins the one before it. */
  sep: ";" | "&&" | "|" | "\n" | "same";
}

const docArb: fc.Arbitrary<Doc> = fc.record({
  name: fc.constantFrom("EOF", "A", "END"),
  quoting: fc.constantFrom(
    "none",
    "single",
    "double",
    "backslash",
    "partSingle",
    "partDouble",
    "partBackslash",
  ),
  strip: fc.boolean(),
  tabs: fc.boolean(),
  lines: fc.array(
    fc.constantFrom(
      "expand",
      "backtick",
      "param",
      "live",
      "plain",
      "trailing",
      "leading",
      "tab",
      "suffix",
      "cont",
    ),
    { maxLength: 4 },
  ),
  sep: fc.constantFrom(";", "&&", "|", "\n", "same"),
});

const lineArb = fc.record({ docs: fc.array(docArb, { minLength: 1, maxLength: 3 }), wrap: fc.boolean() });

function delimiterWord(doc: Doc): string {
  const n = doc.name;
  const head = n.slice(0, 1);
  const rest = n.slice(1);
  switch (doc.quoting) {
    case "none":
      return n;
    case "single":
      return `'${n}'`;
    case "double":
      return `"${n}"`;
    case "backslash":
      return `\\${n}`;
    case "partSingle":
      return `${head}'${rest}'`;
    case "partDouble":
      return `"${head}"${rest}`;
    case "partBackslash":
      return `${head}\\${rest}` + (rest === "" ? "''" : "");
  }
}

/** A body line; markers are unique per heredoc and line. */
function bodyLine(doc: Doc, kind: Doc["lines"][number], k: number, j: number): string {
  const tab = doc.tabs ? "\t" : "";
  switch (kind) {
    case "expand":
      return `${tab}$(pwned x${k}_${j})`;
    case "backtick":
      return `${tab}\`pwned x${k}_${j}\``;
    case "param":
      return `${tab}\${UNSET_NAME:-$(pwned x${k}_${j})}`;
    case "live":
      return `${tab}pwned l${k}_${j}`;
    case "plain":
      return `${tab}hello world`;
    case "trailing":
      return `${doc.name} `;
    case "leading":
      return ` ${doc.name}`;
    case "tab":
      return `\t${doc.name}`;
    case "suffix":
      return `${doc.name}x`;
    case "cont":
      return `${tab}joined \\`;
  }
}

function buildLine(docs: readonly Doc[], wrap: boolean): string {
  let out = "";
  let openers = "";
  let pending: string[] = [];
  docs.forEach((doc, k) => {
    if (k === 0) openers += "cat ";
    else if (doc.sep === "same") openers += " ";
    else if (doc.sep === "\n") {
      out += `${openers}\n${pending.join("")}`;
      openers = "cat ";
      pending = [];
    } else openers += ` ${doc.sep} cat `;
    openers += `${doc.strip ? "<<-" : "<<"}${delimiterWord(doc)}`;
    const lines = doc.lines.map((kind, j) => `${bodyLine(doc, kind, k, j)}\n`);
    pending.push(`${lines.join("")}${doc.strip && doc.tabs ? "\t" : ""}${doc.name}\n`);
  });
  out += `${openers}\n${pending.join("")}`;
  return wrap ? `echo "$(${out})"` : out;
}

describe("readHeredocs agrees with real shells", () => {
  const scratch = scratchDir("slashi-heredoc-");
  const bin = join(scratch, "bin");
  const work = join(scratch, "work");
  const context = trustedContext({ platform: "posix" });
  const policy = recommendedPolicy();

  beforeAll(async () => {
    await loadShellParser();
    mkdirSync(bin);
    mkdirSync(work);
    writeFileSync(join(bin, "pwned"), '#!/bin/sh\n: > "$1"\n');
    chmodSync(join(bin, "pwned"), 0o755);
  });

  function run(shell: Shell, line: string): { stdout: string; markers: string[] } {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work);
    const result = spawnSync(PROGRAM[shell] as string, ["-c", line], {
      cwd: work,
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: scratch, LC_ALL: "C" },
      encoding: "utf8",
      timeout: 30_000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return { stdout: result.stdout, markers: readdirSync(work) };
  }

  it("the harness sees a payload run and a quoted body stay data", () => {
    for (const shell of ["bash", "dash", "zsh"] as const) {
      if (!PROGRAM[shell]) continue;
      expect(run(shell, "cat <<A\n$(pwned x0_0)\nA\n").markers, shell).toEqual(["x0_0"]);
      expect(run(shell, "cat <<'A'\n$(pwned x0_0)\nA\n").markers, shell).toEqual([]);
      const joined = "cat <<A\njoined \\\nA\ncat <<A\nA\n";
      expect(run(shell, joined).stdout, shell).toBe("joined A\ncat <<A\n");
      expect(readHeredocs(joined).heredocs?.map((h) => h.delimiter)).toEqual(["A"]);
    }
  });

  for (const shell of ["bash", "dash", "zsh"] as const) {
    it.skipIf(!PROGRAM[shell])(
      `${shell}: never allows a line that runs the payload; quoted bodies do not expand; cat prints the bodies read`,
      { timeout: 300_000 },
      () => {
        let runs = 0;
        fc.assert(
          fc.property(lineArb, ({ docs, wrap }) => {
            runs++;
            const line = buildLine(docs, wrap);
            const { stdout, markers } = run(shell, line);
            const decision = decide(line, policy, { ...context, shell: HOST_SHELL[shell] }).decision;
            if (markers.length > 0) expect(decision, `${shell} ran ${markers.join(",")}`).not.toBe("allow");
            const reading = readHeredocs(line);
            if (reading.unsure !== undefined) {
              expect(decision).not.toBe("allow");
              return;
            }
            // An unquoted body whose last line ends in a backslash joins the delimiter line to it in every shell:
            // the heredoc runs on over the next opener, so the line holds fewer heredocs than were written.
            const swallowed = docs.some((d) => d.quoting === "none" && d.lines.at(-1) === "cont");
            if (!swallowed) expect(reading.heredocs).toHaveLength(docs.length);
            for (const read of reading.heredocs) {
              if (!read.quoted) continue;
              for (const marker of read.body.match(/x\d+_\d+/g) ?? []) expect(markers).not.toContain(marker);
            }
            const comparable =
              !wrap &&
              docs.every((d, k) => d.quoting !== "none" && (k === 0 || (d.sep !== "|" && d.sep !== "same")));
            if (comparable) expect(stdout).toBe(reading.heredocs.map((h) => h.body).join(""));
          }),
          { numRuns: 150 },
        );
        expect(runs).toBeGreaterThanOrEqual(150);
      },
    );
  }
});
