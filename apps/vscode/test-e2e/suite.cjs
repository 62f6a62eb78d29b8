// In-host tests of the Slashi extension, run inside a real VS Code extension host (code-server) through the
// extensionTestsPath protocol. The runner (e2e/run-e2e.mjs) writes .e2e-expect.json into the workspace folder
// ({ "mode": "restricted" | "trusted" }); the suite writes .e2e-report.json with one entry per test and fails
// when any test fails.
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vscode = require("vscode");

const EXTENSION_ID = "slashi.slashi-vscode";

function folder() {
  const f = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!f) throw new Error("the suite needs a workspace folder");
  return f.uri.fsPath;
}

async function waitFor(predicate, ms = 30000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await predicate()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** A prompter that records prompts and answers from a queue (default: cancel). */
function scriptedPrompter() {
  const p = {
    approvals: [],
    terminals: [],
    answers: [],
    terminalAnswers: [],
    async approval(prompt) {
      p.approvals.push(prompt);
      return p.answers.length > 0 ? p.answers.shift() : undefined;
    },
    async terminal(prompt) {
      p.terminals.push(prompt);
      return p.terminalAnswers.length > 0 ? p.terminalAnswers.shift() : undefined;
    },
  };
  return p;
}

function restrictedTests(api, prompter) {
  const root = folder();
  return {
    "the workspace is in Restricted Mode": async () => {
      assert.equal(vscode.workspace.isTrusted, false);
    },
    "lists only the user's own commands in Restricted Mode": async () => {
      const names = api.catalog().entries.map((e) => `${e.source}:${e.name}`);
      assert.deepEqual(names, ["user:hello-user", "user:remember-me"]);
    },
    "refuses a team command called by id through executeCommand (the handler re-checks trust)": async () => {
      const outcome = await vscode.commands.executeCommand("slashi.run", {
        command: "hello-team",
        args: "x",
      });
      assert.equal(outcome.status, "refused");
      assert.match(outcome.message, /Restricted Mode/);
      assert.equal(prompter.approvals.length, 0);
      assert.equal(fs.existsSync(path.join(root, "e2e-hello.txt")), false);
    },
    "refuses a team command passed as typed text": async () => {
      const outcome = await vscode.commands.executeCommand("slashi.run", "/write-marker nope");
      assert.equal(outcome.status, "refused");
      assert.equal(fs.existsSync(path.join(root, "e2e-marker.txt")), false);
    },
    "runs the user's own command in Restricted Mode": async () => {
      const outcome = await vscode.commands.executeCommand("slashi.run", "/hello-user restricted");
      assert.deepEqual(outcome, { status: "done" });
    },
    "shows no diagnostics for a team file it did not read": async () => {
      const diags = vscode.languages.getDiagnostics(
        vscode.Uri.file(path.join(root, ".vscode", "slashi.json")),
      );
      assert.equal(diags.filter((d) => d.source === "slashi").length, 0);
    },
  };
}

/** Pack dialogs that answer from queues and record what they were shown. */
function scriptedPackDialogs() {
  const dialogs = {
    inputs: [],
    picks: [],
    confirms: [],
    shown: { picks: [], confirms: [], notes: [] },
    async input() {
      return dialogs.inputs.shift();
    },
    async pick(title, items) {
      dialogs.shown.picks.push({ title, labels: items.map((i) => i.label) });
      const wanted = dialogs.picks.shift();
      return items.find((i) => i.label === wanted);
    },
    async confirm(message, detail, action) {
      dialogs.shown.confirms.push({ message, detail, action });
      return dialogs.confirms.shift() === true;
    },
    notify(kind, message) {
      dialogs.shown.notes.push(`${kind}: ${message}`);
    },
  };
  return dialogs;
}

/** The pack commands against the local registry the runner published `@e2e/hello` 1.0.0 and 1.1.0 to. */
function packTests(api, prompter, registry) {
  const root = folder();
  const PACK = "@e2e/hello";
  const dialogs = scriptedPackDialogs();
  const packEntries = () => api.catalog().entries.filter((e) => e.source === "pack");
  const needRegistry = () => assert.ok(registry, "the runner started a registry (e2e/registry/install.sh)");
  return {
    "packs: Browse Packs finds the registry's pack and installs nothing when the install is declined":
      async () => {
        needRegistry();
        api.setPackDialogs(dialogs);
        dialogs.inputs.push("hello");
        dialogs.picks.push(PACK);
        dialogs.confirms.push(false);
        const outcome = await vscode.commands.executeCommand("slashi.packs.browse");
        assert.deepEqual(outcome, { status: "cancelled" });
        assert.ok(dialogs.shown.picks[0].labels.includes(PACK), JSON.stringify(dialogs.shown.picks));
        const asked = dialogs.shown.confirms[0];
        assert.match(asked.message, /Install the pack @e2e\/hello@1\.1\.0/);
        assert.match(asked.detail, /\/pack-hello/);
        assert.match(asked.detail, /Installing runs nothing/);
        assert.equal(packEntries().length, 0);
      },
    "packs: Install Pack installs a version; its command lists and asks before it runs": async () => {
      needRegistry();
      dialogs.confirms.push(true);
      const outcome = await vscode.commands.executeCommand("slashi.packs.install", `${PACK}@1.0.0`);
      assert.deepEqual(outcome, { status: "installed", name: PACK, version: "1.0.0" });
      assert.deepEqual(
        packEntries().map((e) => `${e.name} ${e.label}`),
        [`pack-hello ${PACK}@1.0.0`],
      );
      const before = prompter.approvals.length;
      prompter.answers.push("run");
      const run = await vscode.commands.executeCommand("slashi.run", "/pack-hello");
      assert.deepEqual(run, { status: "done" });
      assert.equal(prompter.approvals.length, before + 1, "the pack command asked before it ran");
      assert.ok(await waitFor(() => fs.existsSync(path.join(root, "pack-v1.txt"))), "the pack's step ran");
    },
    "packs: Update Packs shows each changed step, old and new, then updates": async () => {
      needRegistry();
      dialogs.confirms.push(true);
      const outcome = await vscode.commands.executeCommand("slashi.packs.update");
      assert.deepEqual(outcome, { status: "updated", results: [{ name: PACK, status: "updated" }] });
      const asked = dialogs.shown.confirms.at(-1);
      assert.match(asked.message, /Update @e2e\/hello from 1\.0\.0 to 1\.1\.0/);
      assert.match(asked.detail, /\/pack-hello: changed \(needs approval again\)/);
      assert.match(
        asked.detail,
        /step 2 changed: Terminal: echo v2 > pack-v2\.txt \(was: Terminal: echo v1 > pack-v1\.txt\)/,
      );
      assert.deepEqual(
        packEntries().map((e) => e.label),
        [`${PACK}@1.1.0`],
      );
    },
    "packs: Remove Pack takes its commands out of the list": async () => {
      needRegistry();
      dialogs.picks.push(PACK);
      const outcome = await vscode.commands.executeCommand("slashi.packs.remove");
      assert.deepEqual(outcome, { status: "removed", name: PACK });
      assert.equal(packEntries().length, 0);
      api.setPackDialogs(undefined);
    },
  };
}

function trustedTests(api, prompter) {
  const root = folder();
  const teamFile = path.join(root, ".vscode", "slashi.json");
  return {
    "the workspace is trusted": async () => {
      assert.equal(vscode.workspace.isTrusted, true);
    },
    "lists team commands with their source next to the user's": async () => {
      const names = api.catalog().entries.map((e) => `${e.source}:${e.name}`);
      assert.ok(names.includes("user:hello-user"), names.join(","));
      assert.ok(names.includes("workspace:write-marker"), names.join(","));
      const entry = api.catalog().entries.find((e) => e.name === "write-marker");
      assert.equal(entry.origin, "team-file");
    },
    "asks, runs a terminal step with its exit code, and remembers Always Allow by fingerprint": async () => {
      prompter.answers.push("always");
      const first = await vscode.commands.executeCommand("slashi.run", "/write-marker one two");
      assert.deepEqual(first, { status: "done" });
      assert.equal(prompter.approvals.length, 1);
      assert.equal(prompter.approvals[0].commands[0].status, "new");
      assert.match(prompter.approvals[0].commands[0].steps[0], /\$\{q:args\}/);
      assert.ok(
        await waitFor(() => fs.existsSync(path.join(root, "e2e-marker.txt"))),
        "the marker file was written",
      );
      assert.equal(fs.readFileSync(path.join(root, "e2e-marker.txt"), "utf8").trim(), "one two");
      const second = await vscode.commands.executeCommand("slashi.run", "/write-marker three");
      assert.deepEqual(second, { status: "done" });
      assert.equal(prompter.approvals.length, 1, "an approved command runs without asking");
      // Stored in the runtime's approvals store, the file `slashi run` and the MCP server read.
      const stored = JSON.parse(
        fs.readFileSync(path.join(process.env.SLASHI_STATE_DIR, "approvals.json"), "utf8"),
      );
      const records = Object.values(stored.records).filter((r) => r.workspaceKey === fs.realpathSync(root));
      assert.deepEqual(
        records.map((r) => r.host),
        ["vscode"],
      );
    },
    "asks again, saying what changed, after the team file is edited": async () => {
      const text = fs.readFileSync(teamFile, "utf8").replace("> e2e-marker.txt", "> e2e-marker2.txt");
      fs.writeFileSync(teamFile, text);
      await api.reload();
      const outcome = await vscode.commands.executeCommand("slashi.run", "/write-marker four");
      assert.equal(outcome.status, "cancelled");
      assert.equal(prompter.approvals.length, 2);
      const changed = prompter.approvals[1].commands[0];
      assert.equal(changed.status, "changed");
      assert.match(changed.changes.join("\n"), /step 1 changed/);
      assert.equal(fs.existsSync(path.join(root, "e2e-marker2.txt")), false);
    },
    "asks again after Reset Approvals of This Workspace": async () => {
      prompter.answers.push("always");
      assert.deepEqual(await vscode.commands.executeCommand("slashi.run", "/write-marker five"), {
        status: "done",
      });
      const asked = prompter.approvals.length;
      assert.deepEqual(await vscode.commands.executeCommand("slashi.run", "/write-marker six"), {
        status: "done",
      });
      assert.equal(prompter.approvals.length, asked);
      await vscode.commands.executeCommand("slashi.approvals.resetWorkspace");
      const stored = JSON.parse(
        fs.readFileSync(path.join(process.env.SLASHI_STATE_DIR, "approvals.json"), "utf8"),
      );
      const left = Object.values(stored.records).filter((r) => r.workspaceKey === fs.realpathSync(root));
      assert.deepEqual(left, [], "the reset removed this workspace's approvals from the file");
      const outcome = await vscode.commands.executeCommand("slashi.run", "/write-marker seven");
      assert.equal(outcome.status, "cancelled");
      assert.equal(prompter.approvals.length, asked + 1);
    },
    "stops at a terminal step's non-zero exit code": async () => {
      prompter.answers.push("run");
      const outcome = await vscode.commands.executeCommand("slashi.run", "/fail-exit");
      assert.equal(outcome.status, "failed", JSON.stringify(outcome));
      assert.equal(outcome.code, "STEP_FAILED");
      assert.match(outcome.message, /exit code 2: Terminal \(terminal "e2e"\): ls \/no-such-dir-slashi-e2e/);
    },
    "offers Always Allow for a terminal step that asks, stored where every host reads it": async () => {
      fs.writeFileSync(path.join(root, "e2e-always.sh"), "#!/bin/sh\necho remembered > e2e-always.txt\n", {
        mode: 0o755,
      });
      const asked = prompter.terminals.length;
      prompter.terminalAnswers.push("always");
      assert.deepEqual(await vscode.commands.executeCommand("slashi.run", "/remember-me"), {
        status: "done",
      });
      assert.equal(prompter.terminals.length, asked + 1);
      assert.equal(prompter.terminals[asked].canRemember, true);
      assert.ok(await waitFor(() => fs.existsSync(path.join(root, "e2e-always.txt"))), "the script ran");
      // The runtime's store of remembered command approvals (the one `slashi check`, the hooks and MCP read).
      const file = path.join(process.env.SLASHI_STATE_DIR, "command-approvals.json");
      const stored = Object.values(JSON.parse(fs.readFileSync(file, "utf8")).records);
      assert.ok(
        stored.some((r) => JSON.stringify(r.argv) === '["./e2e-always.sh"]' && r.cwd === root),
        JSON.stringify(stored),
      );
      fs.rmSync(path.join(root, "e2e-always.txt"));
      assert.deepEqual(await vscode.commands.executeCommand("slashi.run", "/remember-me"), {
        status: "done",
      });
      assert.equal(prompter.terminals.length, asked + 1, "the remembered line runs without asking");
      assert.ok(await waitFor(() => fs.existsSync(path.join(root, "e2e-always.txt"))), "it ran again");
    },
    "refuses ${env:…} in a shared terminal step before any prompt": async () => {
      const before = prompter.approvals.length;
      const outcome = await vscode.commands.executeCommand("slashi.run", "/leak-env");
      assert.equal(outcome.status, "refused");
      assert.equal(outcome.code, "VARIABLE_NOT_ALLOWED");
      assert.ok(
        !outcome.message.includes(process.env.HOME || "/nonexistent-home"),
        "no value in the message",
      );
      assert.equal(prompter.approvals.length, before);
    },
    "refuses a protected setting with its position in the team file": async () => {
      const outcome = await vscode.commands.executeCommand("slashi.run", "/trust-off");
      assert.equal(outcome.status, "refused");
      assert.equal(outcome.code, "STEP_NOT_ALLOWED");
      assert.match(outcome.message, /slashi\.json:\d+:\d+/);
    },
    "refuses a command the policy denies even when the person chose Always Allow": async () => {
      prompter.answers.push("always");
      const outcome = await vscode.commands.executeCommand("slashi.run", "/wipe");
      assert.equal(outcome.status, "refused");
      assert.equal(outcome.code, "POLICY_DENIED");
    },
    "shows a diagnostic at the position of a malformed team file and loads nothing from it": async () => {
      fs.writeFileSync(
        teamFile,
        '{\n  "commands": [\n    { "name": "x", "steps": [], "alwaysAllow": true }\n  ]\n}\n',
      );
      await api.reload();
      const diags = vscode.languages
        .getDiagnostics(vscode.Uri.file(teamFile))
        .filter((d) => d.source === "slashi");
      assert.equal(diags.length, 1);
      assert.equal(diags[0].range.start.line, 2);
      assert.equal(api.catalog().entries.filter((e) => e.source === "workspace").length, 0);
    },
    "validates .vscode/slashi.json with the core's schema while it is edited (jsonValidation)": async () => {
      fs.writeFileSync(teamFile, '{\n  "commands": [],\n  "bogus": 1\n}\n');
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(teamFile));
      await vscode.window.showTextDocument(document);
      const found = await waitFor(
        () =>
          vscode.languages
            .getDiagnostics(document.uri)
            .some((d) => d.source !== "slashi" && /bogus/.test(d.message) && d.range.start.line === 2),
        30000,
      );
      const all = vscode.languages.getDiagnostics(document.uri).map((d) => `${d.source}: ${d.message}`);
      // A team file that cannot be loaded stops every later source's command of a name it may define (the
      // packs' included): the tests after this one start without it.
      fs.rmSync(teamFile);
      await api.reload();
      assert.ok(found, `a schema diagnostic for "bogus" on line 3; got: ${all.join(" | ")}`);
    },
    "validates .vscode/slashi-policy.json with the policy schema while it is edited (jsonValidation)":
      async () => {
        const policyFile = path.join(root, ".vscode", "slashi-policy.json");
        fs.writeFileSync(
          policyFile,
          '{\n  "version": 1,\n  "rules": [{ "match": ["ls"], "decision": "maybe" }]\n}\n',
        );
        const document = await vscode.workspace.openTextDocument(vscode.Uri.file(policyFile));
        await vscode.window.showTextDocument(document);
        const found = await waitFor(
          () =>
            vscode.languages
              .getDiagnostics(document.uri)
              .some((d) => /allow|ask|deny/.test(d.message) && d.range.start.line === 2),
          30000,
        );
        const all = vscode.languages.getDiagnostics(document.uri).map((d) => `${d.source}: ${d.message}`);
        fs.rmSync(policyFile);
        assert.ok(found, `a schema diagnostic for "maybe" on line 3; got: ${all.join(" | ")}`);
      },
  };
}

exports.run = async function run() {
  const expect = JSON.parse(fs.readFileSync(path.join(folder(), ".e2e-expect.json"), "utf8"));
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is loaded`);
  const api = await ext.activate();
  assert.ok(api && typeof api.setPrompter === "function", "the test API is available in test mode");
  const prompter = scriptedPrompter();
  api.setPrompter(prompter);
  await api.reload();
  const tests =
    expect.mode === "trusted"
      ? { ...trustedTests(api, prompter), ...packTests(api, prompter, expect.registry) }
      : restrictedTests(api, prompter);
  const results = [];
  for (const [name, fn] of Object.entries(tests)) {
    try {
      await fn();
      results.push({ name: `${expect.mode}: ${name}`, ok: true });
      console.log(`ok - ${expect.mode}: ${name}`);
    } catch (error) {
      results.push({
        name: `${expect.mode}: ${name}`,
        ok: false,
        error: String(error && error.stack ? error.stack : error),
      });
      console.log(`not ok - ${expect.mode}: ${name}: ${error}`);
    }
  }
  fs.writeFileSync(path.join(folder(), ".e2e-report.json"), JSON.stringify(results, null, 2));
  const failed = results.filter((r) => !r.ok).length;
  if (failed > 0) throw new Error(`${failed} in-host test(s) failed`);
};
