// End-to-end tests of the VS Code extension in a real VS Code host (code-server 4.100.3, installed by
// e2e/install-host.sh). Starts one host, then:
//   route B: the in-host suite (apps/vscode/test-e2e/suite.cjs) through the extensionTestsPath protocol, once in
//            Restricted Mode and once trusted (with the pack commands against a local verdaccio holding two
//            versions of a pack, published with the built CLI);
//   route A: installs the packaged .vsix and drives the workbench with playwright-core and Debian's chromium
//            (trust modal → palette → Slashi: Run → approval modal → notification), saving screenshots.
// Prints each result, then "N passed, N failed", and exits 1 on any failure. The host's process group is always
// killed at the end.
// Environment: E2E_PORT (default a free port), E2E_VSIX (default apps/vscode/dist/slashi-vscode.vsix),
// E2E_ARTIFACTS (default e2e/out), E2E_SKIP_UI=1 to run route B only.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  freePort,
  startRegistry,
  stopRegistry,
  verdaccioBin,
  verdaccioUnavailable,
} from "../packages/test-utils/src/verdaccio.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = dirname(HERE);
const EXT = join(REPO, "apps/vscode");
const HOST_BIN = join(HERE, "host/node_modules/.bin/code-server");
// A free port unless one is given: several checkouts may run the suite at once on one machine.
const PORT = Number(process.env.E2E_PORT ?? (await freePort()));
const BASE = `http://127.0.0.1:${PORT}`;
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(HERE, "out");
const VSIX = process.env.E2E_VSIX ?? join(EXT, "dist/slashi-vscode.vsix");
const CHROMIUM = process.env.E2E_CHROMIUM ?? "/usr/bin/chromium";
// How long the workbench page may take to load: a wait for the host, not an assertion (it reaches minutes on a
// loaded machine).
const PAGE_LOAD_MS = 120000;
// How long one in-host suite may run before it counts as hung (the trusted one installs and updates a pack).
const SUITE_MS = 300000;

const results = [];
const record = (name, ok, detail = "") => {
  results.push({ name, ok, detail });
  console.log(
    `${ok ? "ok" : "FAIL"} - ${name}${detail && !ok ? `\n    ${detail.replace(/\n/g, "\n    ")}` : ""}`,
  );
};

if (!existsSync(HOST_BIN)) {
  console.error("code-server is not installed: run bash e2e/install-host.sh");
  process.exit(1);
}
if (!existsSync(join(EXT, "dist/extension.cjs"))) {
  console.error("the extension is not built: run pnpm --filter slashi-vscode build");
  process.exit(1);
}
const requireHost = createRequire(join(HERE, "host/package.json"));
const { chromium } = requireHost("playwright-core");

mkdirSync(ARTIFACTS, { recursive: true });
const run = mkdtempSync(join(tmpdir(), "slashi-e2e-"));
const data = join(run, "data");
const exts = join(run, "exts");
const userSettings = join(data, "User/settings.json");
mkdirSync(dirname(userSettings), { recursive: true });
// Its own HOME too: the terminals' interactive shells then read no start-up files of the machine (a slow
// ~/.bashrc delays shell integration past the terminal steps' timeout).
const home = join(run, "home");
mkdirSync(home, { recursive: true });
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(run, "xdg-config"),
  XDG_DATA_HOME: join(run, "xdg-data"),
  SLASHI_STATE_DIR: join(run, "slashi-state"),
  SHELL: "/bin/bash",
};

const USER_COMMANDS = [
  {
    name: "hello-user",
    description: "Your own command",
    steps: [{ type: "notify", message: "Hello ${args} from you" }],
  },
  {
    name: "remember-me",
    description: "A terminal step the policy asks about",
    steps: [{ type: "terminal", command: "./e2e-always.sh", terminal: "e2e" }],
  },
];

function writeSettings(extra) {
  writeFileSync(
    userSettings,
    JSON.stringify(
      {
        "workbench.startupEditor": "none",
        "extensions.autoCheckUpdates": false,
        "extensions.autoUpdate": false,
        "telemetry.telemetryLevel": "off",
        "slashi.customCommands": USER_COMMANDS,
        "terminal.integrated.defaultProfile.linux": "bash",
        ...extra,
      },
      null,
      2,
    ),
  );
}

function workspace(name) {
  const ws = join(run, name);
  cpSync(join(EXT, "test-e2e/fixture"), ws, { recursive: true });
  return ws;
}

/** Whether `path` exists within `ms`, checked every 200 ms. */
async function fileAppears(path, ms) {
  const end = Date.now() + ms;
  while (!existsSync(path)) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return true;
}

async function waitForHealth(ms = 30000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const res = await fetch(`${BASE}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("code-server did not answer /healthz");
}

async function browser() {
  const profile = mkdtempSync(join(run, "profile-"));
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

const PACK = "@e2e/hello";

/** Writes version `version` of the pack `@e2e/hello`: one command whose terminal step names the version. */
function writePack(dir, version) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: PACK, version, keywords: ["slashi-pack"], description: "hello pack", files: [] }),
  );
  const v = version === "1.0.0" ? "v1" : "v2";
  writeFileSync(
    join(dir, "slashi-pack.json"),
    JSON.stringify({
      version: 1,
      commands: [
        {
          name: "pack-hello",
          description: "Hello from a pack",
          steps: [
            { type: "notify", message: "hello from the pack" },
            { type: "terminal", command: `echo ${v} > pack-${v}.txt` },
          ],
        },
      ],
    }),
  );
}

/**
 * Starts a verdaccio and publishes `@e2e/hello` 1.0.0 and 1.1.0 to it with the built CLI, for the in-host pack
 * tests. Without verdaccio installed (e2e/registry/install.sh) it returns undefined and those tests fail with a
 * message; with CI set a missing verdaccio throws.
 */
async function packRegistry() {
  if (verdaccioUnavailable()) return undefined;
  const registry = await startRegistry({ bin: verdaccioBin, dir: join(run, "registry"), tls: false });
  const config = join(run, "publisher-config");
  mkdirSync(config, { recursive: true });
  writeFileSync(
    join(config, "registries.json"),
    JSON.stringify({ version: 1, registries: [{ url: registry.url, token: { env: "E2E_PACK_TOKEN" } }] }),
  );
  const publisher = {
    ...env,
    SLASHI_CONFIG_DIR: config,
    SLASHI_STATE_DIR: join(run, "publisher-state"),
    E2E_PACK_TOKEN: registry.token,
  };
  for (const version of ["1.0.0", "1.1.0"]) {
    const dir = join(run, `pack-${version}`);
    writePack(dir, version);
    const published = spawnSync(
      process.execPath,
      [join(REPO, "apps/cli/dist/bin.js"), "pack", "publish", dir, "--yes"],
      { env: publisher, encoding: "utf8" },
    );
    if (published.status !== 0) {
      await stopRegistry(registry);
      throw new Error(`publishing ${PACK}@${version} failed: ${published.stdout}${published.stderr}`);
    }
  }
  return registry;
}

/** Route B: runs the in-host suite in a fresh workspace copy; records each test the suite reports. */
async function inHostSuite(mode, registry) {
  const ws = workspace(`ws-${mode}`);
  writeFileSync(join(ws, ".e2e-expect.json"), JSON.stringify({ mode, registry: registry?.url }));
  writeSettings(
    mode === "trusted"
      ? {
          "security.workspace.trust.enabled": false,
          ...(registry ? { "slashi.registries": [{ url: registry.url }] } : {}),
        }
      : {
          "security.workspace.trust.startupPrompt": "never",
          "security.workspace.trust.banner": "never",
        },
  );
  const remote = (p) => `vscode-remote://127.0.0.1:${PORT}${p}`;
  const payload = JSON.stringify([
    ["extensionDevelopmentPath", remote(EXT)],
    ["extensionTestsPath", remote(join(EXT, "test-e2e/suite.cjs"))],
    ["skipWelcome", "true"],
  ]);
  const context = await browser();
  const logs = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    let done;
    const exited = new Promise((resolve) => (done = resolve));
    await page.exposeFunction("codeAutomationLog", (type, args) =>
      logs.push(`${type} ${JSON.stringify(args)}`),
    );
    await page.exposeFunction("codeAutomationExit", (code) => done(code));
    await page.goto(`${BASE}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(payload)}`, {
      timeout: PAGE_LOAD_MS,
    });
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), SUITE_MS))]);
    const reportFile = join(ws, ".e2e-report.json");
    if (existsSync(reportFile)) {
      for (const r of JSON.parse(readFileSync(reportFile, "utf8")))
        record(`in-host ${r.name}`, r.ok, r.error ?? "");
    }
    if (code !== 0) {
      record(`in-host ${mode}: the suite exits with 0`, false, `exit ${code}\n${logs.slice(-15).join("\n")}`);
    }
    writeFileSync(join(ARTIFACTS, `in-host-${mode}.log`), logs.join("\n"));
  } finally {
    await context.close();
  }
}

/** Files the Marketplace and Open VSX show or need, which must be inside the packaged .vsix. */
const VSIX_MUST_HOLD = [
  "extension/LICENSE.txt",
  "extension/package.json",
  "extension/readme.md",
  "extension/media/icon.png",
  "extension/media/walkthrough/trust.md",
  "extension/media/walkthrough/run.md",
  "extension/media/walkthrough/approve.md",
  "extension/media/walkthrough/packs.md",
  "extension/dist/team-file.schema.json",
  "extension/dist/policy.schema.json",
];

/** The .vsix as a store receives it: a zip listing. */
function vsixContents() {
  const listing = spawnSync("unzip", ["-Z1", VSIX], { encoding: "utf8" });
  const files = listing.stdout.split("\n").filter((line) => line.length > 0);
  const missing = VSIX_MUST_HOLD.filter((file) => !files.includes(file));
  record(
    "ui: the .vsix holds the licence, the icon, the walkthrough and the schemas",
    missing.length === 0,
    missing.join(", "),
  );
}

/** Route A: the installed .vsix in the workbench, driven like a person. */
async function uiSmoke() {
  const ws = workspace("ws-ui");
  writeSettings({});
  const install = spawnSync(
    HOST_BIN,
    ["--user-data-dir", data, "--extensions-dir", exts, "--install-extension", VSIX],
    {
      env,
      encoding: "utf8",
    },
  );
  record(
    "ui: the .vsix installs into code-server",
    install.status === 0,
    `${install.stdout}${install.stderr}`,
  );
  if (install.status !== 0) return;
  const context = await browser();
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${BASE}/?folder=${encodeURIComponent(ws)}`, { timeout: PAGE_LOAD_MS });
    await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
    const trust = page.locator(".monaco-dialog-box").getByRole("button", { name: /Yes, I trust/ });
    await trust.click({ timeout: 30000 });
    await page.waitForSelector("#workbench\\.parts\\.statusbar", { timeout: 30000 });
    await page.screenshot({ path: join(ARTIFACTS, "ui-1-trusted-workbench.png") });

    // Palette → Slashi: Run (retry while the extension activates).
    const input = page.locator(".quick-input-widget .quick-input-box input");
    let listed = false;
    for (let attempt = 0; attempt < 10 && !listed; attempt++) {
      await page.keyboard.press("F1");
      await input.fill(">Slashi: Run");
      listed = await page
        .locator(".quick-input-list .monaco-list-row", { hasText: "Slashi: Run" })
        .first()
        .waitFor({ timeout: 3000 })
        .then(
          () => true,
          () => false,
        );
      if (!listed) await page.keyboard.press("Escape");
    }
    record("ui: the palette lists Slashi: Run", listed);
    if (!listed) return;
    await page.keyboard.press("Enter");
    const row = page.locator(".quick-input-list .monaco-list-row", { hasText: "/hello-team" });
    const hasTeam = await row
      .first()
      .waitFor({ timeout: 15000 })
      .then(
        () => true,
        () => false,
      );
    record("ui: the Run box completes the team command /hello-team", hasTeam);
    await input.fill("/hello-team Ada");
    await page.screenshot({ path: join(ARTIFACTS, "ui-2-run-box.png") });
    await page.keyboard.press("Enter");
    const dialog = page.locator(".monaco-dialog-box");
    const asked = await dialog.waitFor({ timeout: 15000 }).then(
      () => true,
      () => false,
    );
    const dialogText = asked ? await dialog.innerText() : "";
    await page.screenshot({ path: join(ARTIFACTS, "ui-3-approval-modal.png") });
    record(
      "ui: the approval modal shows the step unexpanded with Run and Always Allow",
      asked && /echo hello > e2e-hello\.txt/.test(dialogText) && /Always Allow/.test(dialogText),
      dialogText,
    );
    if (!asked) return;
    await dialog.getByRole("button", { name: "Run", exact: true }).click();
    const toast = page.locator(".notifications-toasts .notification-list-item", {
      hasText: "Hello Ada from the team",
    });
    const shown = await toast
      .first()
      .waitFor({ timeout: 30000 })
      .then(
        () => true,
        () => false,
      );
    await page.screenshot({ path: join(ARTIFACTS, "ui-4-notification.png") });
    record("ui: running shows the command's notification", shown);
    // The runner hands the line to the terminal's shell and goes on; the shell writes the file when it gets to it.
    record("ui: the terminal step ran in the workspace", await fileAppears(join(ws, "e2e-hello.txt"), 20000));
  } finally {
    await context.close();
  }
}

/** Route A in Restricted Mode: the installed extension lists no team command. */
async function uiRestricted() {
  const ws = workspace("ws-ui-restricted");
  writeSettings({});
  const context = await browser();
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${BASE}/?folder=${encodeURIComponent(ws)}`, { timeout: PAGE_LOAD_MS });
    await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
    await page
      .locator(".monaco-dialog-box")
      .getByRole("button", { name: /No, I don.t trust/ })
      .click({ timeout: 30000 });
    const input = page.locator(".quick-input-widget .quick-input-box input");
    let listed = false;
    for (let attempt = 0; attempt < 10 && !listed; attempt++) {
      await page.keyboard.press("F1");
      await input.fill(">Slashi: Run");
      listed = await page
        .locator(".quick-input-list .monaco-list-row", { hasText: "Slashi: Run" })
        .first()
        .waitFor({ timeout: 3000 })
        .then(
          () => true,
          () => false,
        );
      if (!listed) await page.keyboard.press("Escape");
    }
    if (!listed) {
      record("ui restricted: Slashi: Run is available in Restricted Mode", false);
      return;
    }
    await page.keyboard.press("Enter");
    const user = await page
      .locator(".quick-input-list .monaco-list-row", { hasText: "/hello-user" })
      .first()
      .waitFor({ timeout: 15000 })
      .then(
        () => true,
        () => false,
      );
    const team = await page.locator(".quick-input-list .monaco-list-row", { hasText: "/hello-team" }).count();
    await page.screenshot({ path: join(ARTIFACTS, "ui-5-restricted-run-box.png") });
    record(
      "ui restricted: the Run box lists the user's command and no team command",
      user && team === 0,
      `team rows: ${team}`,
    );
    await page.keyboard.press("Escape");

    // Trust granted later loads the team commands and runs nothing.
    await page.keyboard.press("F1");
    await input.fill(">Workspaces: Manage Workspace Trust");
    await page
      .locator(".quick-input-list .monaco-list-row", { hasText: "Manage Workspace Trust" })
      .first()
      .waitFor({ timeout: 10000 });
    await page.keyboard.press("Enter");
    await page
      .locator(".workspace-trust-editor .monaco-button", { hasText: /^Trust$/ })
      .first()
      .click({ timeout: 15000 });
    let loaded = false;
    for (let attempt = 0; attempt < 10 && !loaded; attempt++) {
      await page.keyboard.press("F1");
      await input.fill(">Slashi: Run");
      await page
        .locator(".quick-input-list .monaco-list-row", { hasText: "Slashi: Run" })
        .first()
        .waitFor({ timeout: 5000 });
      await page.keyboard.press("Enter");
      loaded = await page
        .locator(".quick-input-list .monaco-list-row", { hasText: "/hello-team" })
        .first()
        .waitFor({ timeout: 3000 })
        .then(
          () => true,
          () => false,
        );
      if (!loaded) await page.keyboard.press("Escape");
    }
    await page.screenshot({ path: join(ARTIFACTS, "ui-6-after-trust-granted.png") });
    record("ui restricted: granting trust later lists the team commands", loaded);
    record("ui restricted: granting trust runs nothing", !existsSync(join(ws, "e2e-hello.txt")));
  } finally {
    await context.close();
  }
}

const host = spawn(
  HOST_BIN,
  [
    "--bind-addr",
    `127.0.0.1:${PORT}`,
    "--auth",
    "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-getting-started-override",
    "--user-data-dir",
    data,
    "--extensions-dir",
    exts,
  ],
  { detached: true, env, stdio: ["ignore", "pipe", "pipe"] },
);
const hostLog = [];
host.stdout.on("data", (d) => hostLog.push(String(d)));
host.stderr.on("data", (d) => hostLog.push(String(d)));

let registry;
try {
  await waitForHealth();
  await inHostSuite("restricted");
  registry = await packRegistry();
  await inHostSuite("trusted", registry);
  if (process.env.E2E_SKIP_UI === "1") {
    console.log("UI smoke tests skipped (E2E_SKIP_UI=1)");
  } else if (!existsSync(VSIX)) {
    record("ui: a packaged .vsix exists (pnpm package)", false, VSIX);
  } else {
    vsixContents();
    await uiSmoke();
    await uiRestricted();
  }
} catch (error) {
  record("the end-to-end run completes", false, String(error && error.stack ? error.stack : error));
} finally {
  if (registry) await stopRegistry(registry);
  writeFileSync(join(ARTIFACTS, "code-server.log"), hostLog.join(""));
  try {
    process.kill(-host.pid, "SIGTERM");
  } catch {
    // already gone
  }
  await new Promise((r) => setTimeout(r, 3000));
  try {
    process.kill(-host.pid, "SIGKILL");
  } catch {
    // already gone
  }
  rmSync(run, { recursive: true, force: true });
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || results.length === 0 ? 1 : 0);
