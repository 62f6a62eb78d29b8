// The secret canary through `slashi run` (and so through `slashi exec`'s guarded run): a value from ${env:…} in an
// argument, in a step's directory and in the program of a step that cannot start never reaches the audit log, the
// screen or an error. The directory, the program and an open step's target are shown and logged with the value's
// placeholder.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CANARY, scratchDir } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { isolatedEnv, scriptedIo } from "./helpers.js";

describe("the secret canary through slashi run", () => {
  it.each(CANARY.kinds)("a %s value", async (kind) => {
    const root = scratchDir("slashi-canary-");
    const ws = path.join(root, "project");
    mkdirSync(path.join(ws, ".git"), { recursive: true });
    mkdirSync(path.join(root, "config"), { recursive: true });
    writeFileSync(
      path.join(root, "config", "commands.json"),
      JSON.stringify({ version: 1, commands: [CANARY.command, CANARY.openCommand] }),
    );
    writeFileSync(path.join(root, "config", "policy.json"), JSON.stringify(CANARY.policy));
    CANARY.workspace(ws, CANARY.values[kind]);
    // The last step asks (an unknown program): run it once, and it cannot start.
    const session = scriptedIo(isolatedEnv(root, { [CANARY.variable]: CANARY.values[kind] }), ws, "r\n");
    let thrown = "";
    const code = await main(["run", "/canary"], session).catch((error: unknown) => {
      thrown = String(error);
      return -1;
    });
    // The open step prints its target for the person to open: with the value's placeholder.
    const opening = scriptedIo(isolatedEnv(root, { [CANARY.variable]: CANARY.values[kind] }), ws);
    expect(await main(["run", "/canary-open"], opening)).toBe(0);
    expect(opening.out()).toContain(`open in your browser: https://example.com/#${CANARY.placeholder}`);
    const screen = session.out() + session.err() + opening.out() + opening.err();
    expect(code, screen + thrown).toBe(127);
    const audit = readFileSync(path.join(root, "state", "audit.jsonl"), "utf8");
    expect(CANARY.found({ screen, thrown, audit }, CANARY.marks[kind])).toEqual([]);

    const records = audit
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // Every step was recorded; the one in the value's directory names it by its placeholder.
    for (const step of CANARY.command.steps) expect(records.some((r) => r.text === step.command)).toBe(true);
    const inDirectory = records.filter((r) => r.text === CANARY.steps.directory.command);
    expect(inDirectory.map((r) => r.event)).toEqual(["decision", "run"]);
    for (const r of inDirectory) expect(r.cwd).toBe(path.join(ws, CANARY.placeholder));
    // The program that could not start is named by its placeholder, however short the value.
    expect(session.err()).toMatch(new RegExp(`could not start '?${CANARY.placeholder}'?: ENOENT`));
    expect(session.err()).toContain(`approval needed: '${CANARY.placeholder}' --version`);
  });
});
