import { commandNameKey, type CommandDefinition, type Step } from "@slashi/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runSlashSteps, stepPerformerOf, type StepCommand, type StepHostPort } from "./step-loop.js";

type Cmd = StepCommand & { definition: CommandDefinition };

function group(defs: CommandDefinition[], source: Cmd["source"] = "user"): Cmd[] {
  return defs.map((definition) => ({ definition, source, where: { file: "commands.json" } }));
}

/** A port that records what it was asked to do; every kind is performed unless left out. */
function recorder(
  cmds: Cmd[],
  options: { env?: Record<string, string>; leaveOut?: string[]; answers?: (string | undefined)[] } = {},
) {
  const log: string[] = [];
  const answers = [...(options.answers ?? [])];
  const port: StepHostPort<Cmd> = {
    name: "test host",
    context: (command, args, inputs) => ({
      source: command.source,
      values: { args },
      env: (name) => options.env?.[name],
      inputs,
    }),
    callee: (_caller, name) =>
      cmds.find((c) => commandNameKey(c.definition.name) === commandNameKey(name.replace(/^\//, ""))),
    terminal: async (run) => {
      log.push(`terminal ${run.command.definition.name} ${run.step.command} | ${run.display}`);
      return run.step.command.includes("fail")
        ? { stop: { status: "failed", code: "STEP_FAILED", message: "exit 1" }, detail: { exitCode: 1 } }
        : { detail: { exitCode: 0 } };
    },
    notify: (step) => {
      log.push(`notify ${step.message}`);
    },
    input: async (step) => {
      log.push(`input ${step.name}`);
      return answers.shift();
    },
    wait: async (step) => {
      log.push(`wait ${step.ms}`);
    },
    open: async (step, _at, check) => {
      log.push(`open ${step.target} ${check.kind}`);
    },
    insert: async (step) => {
      log.push(`insert ${step.text}`);
    },
    command: async (step) => {
      log.push(`command ${step.command}`);
    },
    setting: async (step) => {
      log.push(`setting ${step.key}`);
    },
  };
  for (const kind of options.leaveOut ?? []) delete (port as unknown as Record<string, unknown>)[kind];
  return { port, log };
}

const def = (name: string, ...steps: Step[]): CommandDefinition => ({ name, steps });

describe("runSlashSteps", () => {
  it("runs the steps in order, follows slash steps with their arguments, and reports each step", async () => {
    const cmds = group([
      def(
        "a",
        { type: "notify", message: "a ${args}" },
        { type: "slash", command: "/b", args: "x y" },
        { type: "wait", ms: 0 },
      ),
      def("b", { type: "terminal", command: "echo ${args}" }, { type: "insert", text: "t" }),
    ]);
    const { port, log } = recorder(cmds);
    const outcome = await runSlashSteps(cmds[0] as Cmd, port, { args: "1" });
    expect(outcome.status).toBe("done");
    expect(log).toEqual(["notify a 1", "terminal b echo x y | echo x y", "insert t", "wait 0"]);
    expect(outcome.steps.map((s) => `${s.command.definition.name}:${s.index}:${s.kind}`)).toEqual([
      "a:0:notify",
      "a:1:slash",
      "b:0:terminal",
      "b:1:insert",
      "a:2:wait",
    ]);
    expect(outcome.steps[2]?.detail).toEqual({ exitCode: 0 });
  });

  it("stops at the first step that fails and runs nothing after it, in the caller either", async () => {
    const cmds = group([
      def("a", { type: "slash", command: "b" }, { type: "notify", message: "after" }),
      def("b", { type: "terminal", command: "fail" }, { type: "notify", message: "never" }),
    ]);
    const { port, log } = recorder(cmds);
    const outcome = await runSlashSteps(cmds[0] as Cmd, port, { args: "" });
    expect(outcome).toMatchObject({ status: "failed", code: "STEP_FAILED", index: 0 });
    expect(outcome.status !== "done" && outcome.command.definition.name).toBe("b");
    expect(log).toEqual(["terminal b fail | fail"]);
  });

  it("binds input values for later steps, and a cancelled input stops the run", async () => {
    const cmds = group([
      def("a", { type: "input", name: "who" }, { type: "notify", message: "hi ${input:who}" }),
    ]);
    const given = recorder(cmds, { answers: ["ann"] });
    expect((await runSlashSteps(cmds[0] as Cmd, given.port, { args: "" })).status).toBe("done");
    expect(given.log).toEqual(["input who", "notify hi ann"]);
    const cancelled = recorder(cmds, { answers: [undefined] });
    const outcome = await runSlashSteps(cmds[0] as Cmd, cancelled.port, { args: "" });
    expect(outcome).toMatchObject({ status: "cancelled", code: "CANCELLED", index: 0 });
    expect(cancelled.log).toEqual(["input who"]);
  });

  it("hides secret values in notifications and in the terminal step's display", async () => {
    const cmds = group([
      def(
        "a",
        { type: "notify", message: "t=${env:TOKEN}" },
        { type: "terminal", command: "echo ${env:TOKEN}" },
      ),
    ]);
    const { port, log } = recorder(cmds, { env: { TOKEN: "s3cr3t" } });
    const traced: Step[] = [];
    port.expanded = (_at, step) => traced.push(step);
    await runSlashSteps(cmds[0] as Cmd, port, { args: "" });
    // The trace hook sees the expanded step itself (tests and tracing only); the port's notify never does.
    expect(traced[0]).toEqual({ type: "notify", message: "t=s3cr3t" });
    expect(log[0]).toBe("notify t=⟪env:TOKEN⟫");
    expect(log[1]).toBe("terminal a echo s3cr3t | echo ⟪env:TOKEN⟫");
  });

  it("hides a one-character secret where it landed, and only there", async () => {
    const cmds = group([
      def("a", { type: "slash", command: "b", args: "t ${env:T}" }),
      def(
        "b",
        { type: "notify", message: "t=${env:T} ${args}" },
        { type: "terminal", command: "test ${env:T} = ${args}" },
      ),
    ]);
    const { port, log } = recorder(cmds, { env: { T: "t" } });
    await runSlashSteps(cmds[0] as Cmd, port, { args: "" });
    // Searching for "t" would have cut every word holding the letter; the placeholders stand where it went.
    expect(log).toEqual(["notify t=⟪env:T⟫ t ⟪env:T⟫", "terminal b test t = t t | test ⟪env:T⟫ = t ⟪env:T⟫"]);
  });

  it("hides a secret a caller passes in a callee's arguments too", async () => {
    const cmds = group([
      def("a", { type: "slash", command: "b", args: "${env:TOKEN}" }),
      def("b", { type: "notify", message: "got ${args}" }),
    ]);
    const { port, log } = recorder(cmds, { env: { TOKEN: "s3cr3t" } });
    await runSlashSteps(cmds[0] as Cmd, port, { args: "" });
    expect(log).toEqual(["notify got ⟪env:TOKEN⟫"]);
  });

  it("refuses a kind the port does not perform with one wording, after the steps before it", async () => {
    const cmds = group([def("a", { type: "notify", message: "first" }, { type: "insert", text: "x" })]);
    const { port, log } = recorder(cmds, { leaveOut: ["insert"] });
    expect(stepPerformerOf(port).performs("insert")).toBe(false);
    expect(stepPerformerOf(port).performs("slash")).toBe(true);
    await expect(runSlashSteps(cmds[0] as Cmd, port, { args: "" })).rejects.toMatchObject({
      code: "STEP_UNAVAILABLE",
      data: { kinds: ["insert"] },
    });
    expect(log).toEqual(["notify first"]);
  });

  it("refuses a callee named at run time that is missing, already running or not allowed", async () => {
    const cmds = group([
      def("a", { type: "slash", command: "${args}" }),
      def("b", { type: "slash", command: "a", args: "b" }),
    ]);
    const { port } = recorder(cmds);
    await expect(runSlashSteps(cmds[0] as Cmd, port, { args: "nope" })).rejects.toMatchObject({
      code: "SLASH_CALL_INVALID",
    });
    await expect(runSlashSteps(cmds[0] as Cmd, port, { args: "b" })).rejects.toMatchObject({
      code: "SLASH_CALL_INVALID",
    });
    const refusing = { ...port, refuseCall: () => "was not approved for this run" };
    await expect(runSlashSteps(cmds[1] as Cmd, refusing, { args: "" })).rejects.toMatchObject({
      code: "SLASH_CALL_INVALID",
    });
  });

  it("refuses an open target a shared source may not open once expanded, and opens a plain one", async () => {
    const cmds = group([def("a", { type: "open", target: "${args}" })], "workspace");
    const { port, log } = recorder(cmds);
    await expect(
      runSlashSteps(cmds[0] as Cmd, port, { args: "command:workbench.action.terminal.new" }),
    ).rejects.toMatchObject({ code: "STEP_NOT_ALLOWED" });
    const own = group([def("o", { type: "open", target: "https://example.com/${args}" })]);
    const mine = recorder(own);
    await runSlashSteps(own[0] as Cmd, mine.port, { args: "x" });
    expect(mine.log).toEqual(["open https://example.com/x url"]);
    expect(log).toEqual([]);
  });

  it("refuses a step of an unknown kind", async () => {
    const cmds = group([def("a", { type: "teleport" } as unknown as Step)]);
    await expect(runSlashSteps(cmds[0] as Cmd, recorder(cmds).port, { args: "" })).rejects.toMatchObject({
      code: "STEP_NOT_ALLOWED",
    });
  });

  it("follows any graph of slash calls as a depth-first walk, refusing cycles and too deep chains", async () => {
    // Commands c0…c(n-1); each step notifies its own name or calls another command by index.
    const graph = fc.integer({ min: 1, max: 6 }).chain((n) =>
      fc.array(fc.array(fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: n - 1 })), { maxLength: 3 }), {
        minLength: n,
        maxLength: n,
      }),
    );
    await fc.assert(
      fc.asyncProperty(graph, fc.integer({ min: 1, max: 4 }), async (calls, maxDepth) => {
        const defs = calls.map((steps, i) =>
          def(
            `c${i}`,
            ...steps.map((to): Step =>
              to < 0 ? { type: "notify", message: `c${i}` } : { type: "slash", command: `c${to}` },
            ),
          ),
        );
        // The reference walk: the notifications in order, or a refusal.
        const expected: string[] = [];
        const walk = (i: number, stack: number[]): boolean => {
          for (const to of calls[i] as number[]) {
            if (to < 0) expected.push(`notify c${i}`);
            else if (stack.includes(to) || stack.length > maxDepth) return false;
            else if (!walk(to, [...stack, to])) return false;
          }
          return true;
        };
        const ok = walk(0, [0]);
        const cmds = group(defs);
        const { port, log } = recorder(cmds);
        const run = runSlashSteps(cmds[0] as Cmd, port, { args: "", maxDepth });
        if (ok) expect((await run).status).toBe("done");
        else await expect(run).rejects.toMatchObject({ code: "SLASH_CALL_INVALID" });
        expect(log).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe("runSlashSteps: what the loop adds to a step's context", () => {
  it("reads the clipboard only for a step whose expanding fields use it", async () => {
    const cmds = group([
      def(
        "a",
        { type: "setting", key: "a.b", value: "${clipboard}" },
        { type: "notify", message: "no clipboard here" },
        { type: "command", command: "x.run", args: { text: ["${clipboard}"] } },
      ),
    ]);
    const { port, log } = recorder(cmds);
    let reads = 0;
    port.clipboard = async () => {
      reads += 1;
      return "copied";
    };
    const traced: Step[] = [];
    port.expanded = (_at, step) => traced.push(step);
    await runSlashSteps(cmds[0] as Cmd, port, { args: "" });
    expect(reads).toBe(1);
    expect(traced[2]).toEqual({ type: "command", command: "x.run", args: { text: ["copied"] } });
    expect(log).toEqual(["setting a.b", "notify no clipboard here", "command x.run"]);
  });

  it("quotes ${q:…} of a terminal step for the shell the port names, and fails closed for an unknown one", async () => {
    const cmds = group([def("a", { type: "terminal", command: "echo ${q:args}", terminal: "T" })]);
    const { port, log } = recorder(cmds);
    const named: string[] = [];
    port.shell = (raw) => {
      named.push(raw.terminal ?? "");
      return "/usr/bin/fish";
    };
    await runSlashSteps(cmds[0] as Cmd, port, { args: "it's" });
    expect(named).toEqual(["T"]);
    expect(log).toEqual([`terminal a echo 'it\\'s' | echo 'it\\'s'`]);
    port.shell = () => "/opt/weird/xsh";
    await expect(runSlashSteps(cmds[0] as Cmd, port, { args: "x" })).rejects.toMatchObject({
      code: "UNKNOWN_SHELL",
    });
    expect(log).toHaveLength(1);
  });

  it("runs a terminal step in the command's workspace or its cwd there, and refuses one outside", async () => {
    const cmds = group([
      def(
        "a",
        { type: "terminal", command: "ls" },
        { type: "terminal", command: "ls", cwd: "${args}/sub" },
        { type: "terminal", command: "ls", cwd: "../../${args}" },
      ),
    ]);
    const { port } = recorder(cmds);
    const cwds: (string | undefined)[] = [];
    const terminal = port.terminal!;
    port.terminal = async (run) => {
      cwds.push(run.cwd);
      return terminal(run);
    };
    port.workspace = () => "/w/app";
    await expect(runSlashSteps(cmds[0] as Cmd, port, { args: "pkg" })).rejects.toMatchObject({
      code: "STEP_NOT_ALLOWED",
    });
    expect(cwds).toEqual(["/w/app", "/w/app/pkg/sub"]);
  });

  it("hands a terminal step's directory on with a secret value's placeholder for what is shown", async () => {
    const cmds = group([
      def(
        "a",
        { type: "terminal", command: "ls", cwd: "sub/${env:DIR}" },
        { type: "terminal", command: "ls", cwd: "${args}" },
      ),
    ]);
    const { port } = recorder(cmds, { env: { DIR: "ab" } });
    const seen: [string | undefined, string | undefined][] = [];
    port.terminal = async (run) => void seen.push([run.cwd, run.displayCwd]);
    port.workspace = () => "/w/app";
    await runSlashSteps(cmds[0] as Cmd, port, { args: "pkg" });
    expect(seen).toEqual([
      ["/w/app/sub/ab", "/w/app/sub/⟪env:DIR⟫"],
      ["/w/app/pkg", "/w/app/pkg"],
    ]);
  });
});
