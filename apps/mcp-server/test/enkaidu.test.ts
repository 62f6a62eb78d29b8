// Runs every case of the conformance area `enkaidu` through the BUILT server over stdio with the SDK client: the
// case's YAML (or an empty config) is given with --enkaidu-config, its ENKAIDU_* variables are in the server's
// environment, and the line is decided by check_command (the `network` op reads check_command's `network`).
// A case expecting `refused: { jsonPath, line }` (a `session.readonly` or `cordon.policy` path the cordon cannot
// honour) expects check_command to refuse with CONFIG_ERROR, naming the config's line.
// Cases that share a config and an environment share one server. The workspace is trusted, as the core's harness
// decides for a trusted workspace.
//
// A case that cannot apply here is listed under `mcp-enkaidu` in @slashi/conformance's not-applicable.json with its
// reason (may only shrink).
import { writeFileSync } from "node:fs";
import path from "node:path";
import {
  compareWithBaseline,
  loadCases,
  notApplicable as notApplicableTo,
  notApplicableProblems,
  type ConformanceCase,
} from "@slashi/conformance";
import { TrustFileStore } from "@slashi/runtime";
import { scratchDir, tempHome } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { connect, serverEnv, structured, type Connected } from "./helpers.js";

interface Input {
  yaml?: string;
  env?: Record<string, string>;
  os: "unix" | "windows";
  command: string;
  op?: "network";
}
interface Expected {
  decision?: string;
  codes?: string[];
  network?: boolean;
  refused?: { jsonPath: string; line: number };
}
type Case = ConformanceCase<Input, Expected>;

const cases = loadCases<Input, Expected>("enkaidu");
const notApplicable = new Set(notApplicableTo("mcp-enkaidu").map((e) => e.case));
const hostOs = process.platform === "win32" ? "windows" : "unix";

const groups = new Map<string, Case[]>();
for (const c of cases) {
  const key = JSON.stringify([c.input.yaml ?? "", c.input.env ?? {}, c.input.os]);
  groups.set(key, [...(groups.get(key) ?? []), c]);
}

const problems = new Map<string, string[]>();
/** Each group's home, config, state and workspace go in here (removed after the file's tests, also on failure). */
const scratch = scratchDir("slashi-mcp-enkaidu-");

async function runGroup(group: Case[]): Promise<void> {
  const first = group[0] as Case;
  const temp = tempHome("group-", scratch);
  const { dir: root, workspace } = temp;
  const dirs = { home: temp.home, configDir: temp.configDir, stateDir: temp.stateDir };
  // The person's own config lives outside the workspace; an empty one means: defaults and ENKAIDU_* only.
  const config = path.join(dirs.home, "enkaidu.yml");
  writeFileSync(config, first.input.yaml ?? "{}\n");
  await new TrustFileStore({ file: path.join(dirs.stateDir, "trust.json") }).setTrusted(workspace, true);
  let server: Connected | undefined;
  try {
    server = await connect(
      {
        root,
        ...dirs,
        workspace,
        env: serverEnv(dirs),
        cleanup: () => undefined,
      },
      {
        args: ["--enkaidu-config", config],
        env: { ...serverEnv(dirs), ...(first.input.env ?? {}) },
      },
    );
    for (const c of group) {
      const result = await server.client.callTool({
        name: "check_command",
        arguments: { command: c.input.command },
      });
      const got = structured(result);
      const found: string[] = [];
      if (c.expected.refused !== undefined) {
        const at = `enkaidu.yml:${c.expected.refused.line}:`;
        if (result.isError !== true || got.code !== "CONFIG_ERROR" || !String(got.message).includes(at))
          found.push(`expected CONFIG_ERROR at ${at}, got ${JSON.stringify(result.content)}`);
      } else if (result.isError === true) found.push(`error: ${JSON.stringify(result.content)}`);
      else if (c.input.op === "network") {
        if (got.network !== c.expected.network)
          found.push(`expected network ${String(c.expected.network)}, got ${String(got.network)}`);
      } else {
        const codes = ((got.reasons as { code: string }[] | undefined) ?? []).map((r) => r.code);
        if (got.decision !== c.expected.decision)
          found.push(`expected ${c.expected.decision}, got ${String(got.decision)}: ${codes.join(", ")}`);
        for (const code of c.expected.codes ?? [])
          if (!codes.includes(code)) found.push(`missing reason ${code}`);
      }
      problems.set(c.id, found);
    }
  } catch (error) {
    for (const c of group) problems.set(c.id, [`server failed: ${(error as Error).message}`]);
  } finally {
    await server?.close();
    temp.remove();
  }
}

describe("enkaidu conformance through slashi-mcp --enkaidu-config", () => {
  const failed: string[] = [];

  it("runs every case of this OS through the built server", { timeout: 600_000 }, async () => {
    const queue = [...groups.values()].filter((g) => (g[0] as Case).input.os === hostOs);
    const workers = Array.from({ length: 2 }, async () => {
      for (let g = queue.shift(); g !== undefined; g = queue.shift()) await runGroup(g);
    });
    await Promise.all(workers);
    expect(problems.size).toBe(cases.filter((c) => c.input.os === hostOs).length);
  });

  it("lists only cases of this area as not applicable", () => {
    expect(
      notApplicableProblems(
        notApplicableTo("mcp-enkaidu"),
        cases.map((c) => c.id),
      ),
    ).toEqual([]);
  });

  it("matches every case except the not-applicable ones", () => {
    const unexpected: string[] = [];
    for (const c of cases) {
      const found = c.input.os === hostOs ? (problems.get(c.id) ?? ["not run"]) : [`an ${c.input.os} case`];
      if (found.length === 0) continue;
      failed.push(c.id);
      if (!notApplicable.has(c.id)) unexpected.push(`${c.id}: ${found.join("; ")}`);
    }
    expect(unexpected).toEqual([]);
  });

  afterAll(() => {
    expect(compareWithBaseline(failed, [...notApplicable])).toEqual([]);
  });
});
