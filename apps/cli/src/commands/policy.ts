/** `slashi policy init|validate|show|test`. */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import {
  decide,
  isSlashiError,
  parsePolicy,
  PRESETS,
  RECOMMENDED_POLICY,
  ruleInactiveHere,
  type PolicyDocument,
  type Verdict,
} from "@slashi/core";
import { formatPattern } from "@slashi/core/internal";
import {
  checkManagedPolicy,
  defaultManagedPolicyPath,
  enkaiduExtendLayers,
  isEnkaiduConfigPath,
  locateExtendsError,
  readBoundedText,
  SLASHI_FILES,
  writeFileAtomic,
} from "@slashi/runtime";
import {
  enkaiduReadOptions,
  ensureParser,
  loadSetup,
  packLayers,
  resolveWorkspace,
  slashiPaths,
} from "../context.js";
import { CliError, ExitCode, formatError, invalidPolicyLine, toExitCode } from "../errors.js";
import { readIfPresent } from "../files.js";
import { jsonText, paintVerdict, println, shown, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { setupOptions } from "./check.js";

const STARTER = `{
  // Your Slashi policy. Rules match a command's words from the start; the strictest matching rule wins.
  // Docs: docs/policy.md. Check it with: slashi policy validate
  "$schema": "https://slashi.dev/schemas/policy.json",
  "version": 1,
  "extends": ["recommended"],
  "rules": [
    // { "match": ["make", ["build", "test"]], "decision": "allow", "examples": { "match": ["make test"] } },
    // { "match": ["terraform", "apply"], "decision": "deny", "reason": "apply runs in CI only" }
  ]
}
`;

/** `slashi policy init [--force]`. */
export async function policyInit(args: ParsedArgs, io: Io): Promise<number> {
  const file = path.join(slashiPaths(io).configDir, SLASHI_FILES.userPolicy);
  const previous = await readIfPresent(file);
  const exists = previous !== undefined;
  if (exists && args.flags.force !== true) {
    throw new CliError(
      `${file} already exists; nothing was written`,
      ExitCode.USAGE,
      "use --force to replace it (the old file is kept as policy.json.slashi-backup)",
    );
  }
  if (previous !== undefined) await writeFile(`${file}.slashi-backup`, previous);
  await writeFileAtomic(file, STARTER);
  println(io.stdout, `wrote ${file}${exists ? ` (previous file kept as ${file}.slashi-backup)` : ""}`);
  return ExitCode.OK;
}

/** The policy files that apply to a working directory, existing ones only. */
async function applicableFiles(io: Io, cwd: string): Promise<string[]> {
  const out: string[] = [];
  const managed = defaultManagedPolicyPath({ env: io.env });
  if ((await checkManagedPolicy(managed)).exists) out.push(managed);
  const user = path.join(slashiPaths(io).configDir, SLASHI_FILES.userPolicy);
  const workspace = (await resolveWorkspace(cwd)).policyFile;
  for (const file of [user, workspace]) {
    // A file that is there but cannot be read safely is listed: validating it reports why.
    if (
      await readIfPresent(file).then(
        (bytes) => bytes !== undefined,
        () => true,
      )
    )
      out.push(file);
  }
  return out;
}

/**
 * Every `extends` entry of a parsed file resolves, as a policy load checks it: a preset, an installed pack, or an
 * Enkaidu config read and checked against the cordon of the workspace of `cwd` (the policy session's own reader).
 * @throws SlashiError `PACK_NOT_FOUND` at the entry's line, with the closest preset or installed pack;
 *   `INVALID_POLICY` at the entry's line for an Enkaidu config that cannot be used (its own location in
 *   `data.enkaidu`)
 */
async function checkExtends(
  file: string,
  text: string,
  document: PolicyDocument,
  io: Io,
  cwd: string,
): Promise<void> {
  const sources = [{ layer: { kind: "user" as const, source: file, document }, text }];
  await enkaiduExtendLayers(sources, await enkaiduReadOptions(io, cwd));
  const names = (document.extends ?? []).filter((name) => !PRESETS.has(name) && !isEnkaiduConfigPath(name));
  if (names.length === 0) return;
  try {
    await packLayers(names, { packsDir: slashiPaths(io).packs, approved: async () => false });
  } catch (error) {
    throw locateExtendsError(error, sources);
  }
}

/** `slashi policy validate [FILE...]`: every file is checked; exit 3 when any is invalid. */
export async function policyValidate(args: ParsedArgs, io: Io): Promise<number> {
  await ensureParser();
  const cwd = path.resolve(io.cwd, typeof args.flags.cwd === "string" ? args.flags.cwd : ".");
  const files =
    args.operands.length > 0
      ? args.operands.map((f) => path.resolve(io.cwd, f))
      : await applicableFiles(io, cwd);
  const results: {
    file: string;
    ok: boolean;
    error?: { code: string; message: string; line?: number; column?: number; jsonPath?: string };
  }[] = [];
  const problems = new Map<string, unknown>();
  let status: number = ExitCode.OK;
  for (const file of files) {
    try {
      let text: string;
      try {
        text = await readBoundedText(file);
      } catch (error) {
        if (isSlashiError(error)) throw error;
        throw new CliError(
          `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
          ExitCode.INVALID_INPUT,
        );
      }
      await checkExtends(file, text, parsePolicy(text, file), io, cwd);
      results.push({ file, ok: true });
    } catch (error) {
      const code = toExitCode(error);
      status = status === ExitCode.OK ? code : status;
      problems.set(file, error);
      const data = (error as { data?: { line?: number; column?: number; jsonPath?: string } }).data ?? {};
      results.push({
        file,
        ok: false,
        error: {
          code: (error as { code?: string }).code ?? "INVALID_INPUT",
          message: formatError(error).replace(/^slashi: /, ""),
          ...(data.line !== undefined ? { line: data.line } : {}),
          ...(data.column !== undefined ? { column: data.column } : {}),
          ...(data.jsonPath !== undefined ? { jsonPath: data.jsonPath } : {}),
        },
      });
    }
  }
  if (args.flags.json === true) println(io.stdout, jsonText(results, 2));
  else {
    if (results.length === 0)
      println(io.stdout, "no policy files here; the built-in recommended preset applies");
    for (const r of results)
      // The same line as `slashi trust` prints for a policy that does not load.
      println(r.ok ? io.stdout : io.stderr, r.ok ? `ok ${r.file}` : invalidPolicyLine(problems.get(r.file)));
  }
  return status;
}

/** `slashi policy show`: the resolved layers, their rules and the merged settings. */
export async function policyShow(args: ParsedArgs, io: Io): Promise<number> {
  const parser = ensureParser();
  const setup = await loadSetup(io, setupOptions(args));
  await parser;
  const p = setup.policy;
  const inactiveHere = (r: (typeof p.rules)[number]): string | undefined =>
    ruleInactiveHere(r, { workspaceTrusted: setup.trusted });
  const rules = p.rules.map((r) => ({
    layer: r.layer,
    source: r.source,
    jsonPath: r.jsonPath,
    pattern: formatPattern(r.pattern),
    decision: r.decision,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.trustedWorkspaceOnly ? { trustedWorkspaceOnly: true } : {}),
    // A rule that counts only in a trusted workspace is shown as not counting here, as deciding treats it.
    ...(inactiveHere(r) === undefined ? {} : { inactive: inactiveHere(r) }),
  }));
  const settings = {
    allowNetwork: p.allowNetwork,
    networkAllowedCommands: p.networkAllowedCommands?.map((w) => w.join(" ")) ?? null,
    allowWorkspaceWrites: p.allowWorkspaceWrites ?? null,
    skipConfirmInCordon: p.skipConfirmInCordon,
    restrictedTerms: p.restrictedTerms.map((t) => t.text),
    gates: p.gates.map((g) => ({
      layer: g.layer,
      source: g.source,
      prefixes: g.prefixes.map((w) => w.join(" ")),
    })),
  };
  if (args.flags.json === true) {
    println(
      io.stdout,
      jsonText(
        {
          workspace: setup.workspace.root,
          trusted: setup.trusted,
          layers: p.layers,
          settings,
          rules,
          notes: p.notes,
          warnings: setup.warnings,
        },
        2,
      ),
    );
    return ExitCode.OK;
  }
  println(io.stdout, `workspace ${setup.workspace.root} (${setup.trusted ? "trusted" : "not trusted"})`);
  println(io.stdout, "layers, highest first:");
  for (const l of p.layers)
    println(
      io.stdout,
      `  ${l.kind.padEnd(9)} ${l.source}${l.trusted ? "" : "  (allow rules not counted until approved)"}`,
    );
  println(io.stdout, "settings:");
  for (const [k, v] of Object.entries(settings)) println(io.stdout, `  ${k}: ${JSON.stringify(v)}`);
  println(io.stdout, `rules (${rules.length}):`);
  for (const r of rules) {
    const flags = [
      r.trustedWorkspaceOnly ? "trusted workspace only" : "",
      r.inactive ? `inactive: ${r.inactive}` : "",
    ]
      .filter(Boolean)
      .join(", ");
    println(
      io.stdout,
      `  ${paintVerdict(io, r.decision).padEnd(5)} ${r.pattern}   (${r.layer} ${r.source}${r.jsonPath})${flags ? ` [${flags}]` : ""}`,
    );
  }
  for (const n of p.notes) println(io.stdout, `note: ${n}`);
  for (const w of setup.warnings) println(io.stderr, shown`slashi: warning: ${w}`);
  return ExitCode.OK;
}

/** One example that did not hold. */
interface ExampleFailure {
  layer: string;
  source: string;
  rule: string;
  example: string;
  kind: "match" | "notMatch";
  expected: string;
  got: Verdict;
  reasons: string[];
}

/**
 * `slashi policy test`: every rule example of every layer, decided by the whole resolved policy. A `match`
 * example must get the rule's own decision (otherwise another rule or finding overrides it); a `notMatch`
 * example must not be decided by that rule.
 */
export async function policyTest(args: ParsedArgs, io: Io): Promise<number> {
  const parser = ensureParser();
  const setup = await loadSetup(io, setupOptions(args));
  await parser;
  const documents: { layer: string; source: string; document: PolicyDocument }[] = setup.layers.map((l) => ({
    layer: l.kind,
    source: l.source,
    document: l.document,
  }));
  if (!documents.some((d) => d.layer === "user"))
    documents.push({ layer: "builtin", source: "preset:recommended", document: RECOMMENDED_POLICY });
  let total = 0;
  const failures: ExampleFailure[] = [];
  for (const { layer, source, document } of documents) {
    (document.rules ?? []).forEach((rule, i) => {
      const jsonPath = `/rules/${i}`;
      for (const kind of ["match", "notMatch"] as const) {
        for (const example of rule.examples?.[kind] ?? []) {
          total++;
          const d = decide(example, setup.policy, setup.context);
          const spoke = d.reasons.some(
            (r) => r.inactive === undefined && r.rule?.source === source && r.rule.jsonPath === jsonPath,
          );
          const ok = kind === "match" ? d.decision === rule.decision : !spoke;
          if (!ok) {
            failures.push({
              layer,
              source,
              rule: `${jsonPath} (${formatPattern(rule.match)})`,
              example,
              kind,
              expected: kind === "match" ? rule.decision : "not decided by this rule",
              got: d.decision,
              reasons: d.reasons
                .filter((r) => r.inactive === undefined && r.severity === d.decision)
                .map((r) => `${r.code}: ${r.message}`),
            });
          }
        }
      }
    });
  }
  if (args.flags.json === true) println(io.stdout, jsonText({ examples: total, failures }, 2));
  else {
    for (const f of failures) {
      println(
        io.stdout,
        `FAIL ${f.source} ${f.rule}: ${f.kind} example "${f.example}" is ${f.got}, expected ${f.expected}`,
      );
      for (const r of f.reasons) println(io.stdout, `     ${r}`);
    }
    println(io.stdout, `${total - failures.length} of ${total} examples hold`);
  }
  return failures.length === 0 ? ExitCode.OK : ExitCode.INVALID_INPUT;
}
