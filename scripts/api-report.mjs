#!/usr/bin/env node
// The API report: every name a package's entry point exports, with its kind and its type as TypeScript prints
// it, written to the package's `etc/<name>.api.md`. Each package's test compares the report of its current
// sources with the committed file, so a change to the public API fails `pnpm test` until someone reviews it and
// runs `pnpm api:update` (which rewrites the files of every package listed in API_PACKAGES). Each package's
// `lint` script runs the check for itself, so `pnpm test` and a focused `turbo run lint` both catch a change.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The packages with a guarded API: folder, and the entry points (export subpath → source file) reported. */
export const API_PACKAGES = [
  { dir: "packages/core", entries: { ".": "src/index.ts", "./internal": "src/internal.ts" } },
  { dir: "packages/runtime", entries: { ".": "src/index.ts", "./paths": "src/config/paths.ts" } },
  { dir: "packages/registry-client", entries: { ".": "src/index.ts" } },
];

const FLAGS =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope |
  ts.TypeFormatFlags.WriteArrowStyleSignature;

function kindOf(symbol) {
  const f = symbol.flags;
  if (f & ts.SymbolFlags.Class) return "class";
  if (f & ts.SymbolFlags.Function) return "function";
  if (f & ts.SymbolFlags.Enum) return "enum";
  if (f & ts.SymbolFlags.Variable) return f & ts.SymbolFlags.TypeAlias ? "const+type" : "const";
  if (f & ts.SymbolFlags.Interface) return "interface";
  if (f & ts.SymbolFlags.TypeAlias) return "type";
  return "other";
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/**
 * A function's or annotated constant's type as its source writes it (type names kept, not expanded), or
 * undefined when the source leaves it to inference.
 */
function written(symbol) {
  const decl = symbol.valueDeclaration;
  if (!decl) return undefined;
  const source = decl.getSourceFile();
  if (ts.isFunctionDeclaration(decl) && decl.type) {
    const signatures = (symbol.declarations ?? []).filter(ts.isFunctionDeclaration);
    const overloads = signatures.filter((d) => d.body === undefined);
    return (overloads.length > 0 ? overloads : signatures)
      .map((d) => {
        const typeParams = d.typeParameters
          ? `<${d.typeParameters.map((p) => p.getText(source)).join(", ")}>`
          : "";
        const params = d.parameters.map((p) => p.getText(source).replace(/\s+/g, " ")).join(", ");
        return `${typeParams}(${params}) => ${d.type ? d.type.getText(source).replace(/\s+/g, " ") : "unknown"}`;
      })
      .join(" & ");
  }
  if (ts.isVariableDeclaration(decl) && decl.type) return decl.type.getText(source).replace(/\s+/g, " ");
  return undefined;
}

/** One line (or block) per export: values by their type, types by their declaration without comments. */
function describe(checker, symbol, location) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const kind = kindOf(target);
  const name = symbol.getName();
  const parts = [];
  if (target.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable | ts.SymbolFlags.Class)) {
    const type = checker.getTypeOfSymbolAtLocation(target, location);
    if (target.flags & ts.SymbolFlags.Class) {
      const instance = checker.getDeclaredTypeOfSymbol(target);
      const members = checker
        .getPropertiesOfType(instance)
        .filter((m) => !m.getName().startsWith("#"))
        .map(
          (m) =>
            `  ${m.getName()}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(m, location), undefined, FLAGS)}`,
        )
        .sort();
      const ctor = checker
        .getSignaturesOfType(type, ts.SignatureKind.Construct)
        .map((s) => `  new ${checker.signatureToString(s, undefined, FLAGS)}`);
      parts.push(`class ${name} {\n${[...ctor, ...members].join("\n")}\n}`);
    } else {
      parts.push(`${kind} ${name}: ${written(target) ?? checker.typeToString(type, undefined, FLAGS)}`);
    }
  }
  if (target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Enum)) {
    for (const decl of target.declarations ?? []) {
      if (ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl) || ts.isEnumDeclaration(decl)) {
        const text = printer.printNode(ts.EmitHint.Unspecified, decl, decl.getSourceFile());
        parts.push(name === decl.name.text ? text : `${text} /* exported as ${name} */`);
      }
    }
  }
  if (parts.length === 0) parts.push(`${kind} ${name}`);
  return parts.join("\n");
}

/** The type names a declaration's signature or body of types mentions (function and class bodies left out). */
function namedTypes(checker, decl) {
  const found = [];
  const visit = (node) => {
    if (ts.isBlock(node) || (ts.isVariableDeclaration(node) && node !== decl)) return;
    let name;
    if (ts.isTypeReferenceNode(node)) name = node.typeName;
    else if (ts.isExpressionWithTypeArguments(node)) name = node.expression;
    else if (ts.isTypeQueryNode(node)) name = node.exprName;
    if (name) {
      let symbol = checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.left : name);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (symbol) found.push(symbol);
    }
    if (ts.isVariableDeclaration(node)) {
      if (node.type) visit(node.type);
      else if (node.initializer && ts.isAsExpression(node.initializer)) visit(node.initializer.type);
      return;
    }
    if (ts.isClassDeclaration(node)) {
      for (const member of node.members) {
        if (member.name && ts.isPrivateIdentifier(member.name)) continue;
        if (member.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) continue;
        ts.forEachChild(member, visit);
      }
      for (const clause of node.heritageClauses ?? []) visit(clause);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(decl);
  return found;
}

/**
 * The package's public entry (`.`) must name every type its exports' signatures mention: a type only another
 * entry (such as `./internal`) exports would make the public API depend on a name with no promise. Returns one
 * line per such type, with the public names that mention it.
 */
function leaksFromPublic(checker, sources) {
  const exportsOf = new Map();
  for (const [subpath, source] of sources) {
    const moduleSymbol = checker.getSymbolAtLocation(source);
    const targets = new Map();
    for (const symbol of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      targets.set(target, symbol.getName());
    }
    exportsOf.set(subpath, targets);
  }
  const main = exportsOf.get(".");
  if (!main || exportsOf.size < 2) return [];
  const elsewhere = new Map();
  for (const [subpath, targets] of exportsOf)
    if (subpath !== ".") for (const [target, name] of targets) elsewhere.set(target, `${subpath}:${name}`);
  const leaks = new Map();
  for (const [target, name] of main) {
    for (const decl of target.declarations ?? []) {
      for (const named of namedTypes(checker, decl)) {
        if (main.has(named) || !elsewhere.has(named)) continue;
        const key = elsewhere.get(named);
        leaks.set(key, [...(leaks.get(key) ?? []), name]);
      }
    }
  }
  return [...leaks].map(
    ([key, users]) => `${key} is named by public ${[...new Set(users)].sort().join(", ")}`,
  );
}

/**
 * The report of one package: a Markdown page with one fenced block per entry point.
 * @param {{ dir: string, entries: Record<string, string> }} pkg
 * @returns {string}
 */
export function apiReport(pkg) {
  const pkgDir = path.resolve(root, pkg.dir);
  const manifest = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  const configFile = ts.readConfigFile(path.join(pkgDir, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, pkgDir);
  const files = Object.values(pkg.entries).map((f) => path.join(pkgDir, f));
  const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const out = [
    `# API report: ${manifest.name}`,
    "",
    "Generated by `scripts/api-report.mjs`; do not edit. A change here is a change to the public API: review it,",
    "then run `pnpm api:update` and commit this file with the change.",
  ];
  const sources = Object.entries(pkg.entries).map(([subpath, file]) => {
    const source = program.getSourceFile(path.join(pkgDir, file));
    if (!source) throw new Error(`${pkg.dir}: ${file} is not part of the program`);
    return [subpath, source];
  });
  const leaks = leaksFromPublic(checker, sources);
  if (leaks.length > 0)
    throw new Error(
      `${manifest.name}: a public type is missing from the entry point\n  ${leaks.join("\n  ")}`,
    );
  for (const [subpath, source] of sources) {
    const moduleSymbol = checker.getSymbolAtLocation(source);
    const exports = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
    const blocks = exports
      .map((symbol) => describe(checker, symbol, source))
      .sort((a, b) => a.localeCompare(b, "en"));
    const specifier = subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    out.push("", `## \`${specifier}\` (${exports.length} exports)`, "", "```ts", ...blocks, "```");
  }
  return `${out.join("\n")}\n`;
}

/** Where a package's committed report lives. */
export function reportPath(pkg) {
  return path.join(root, pkg.dir, "etc", `${path.basename(pkg.dir)}.api.md`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const update = process.argv.includes("--update");
  // `node scripts/api-report.mjs core` checks one package (each package's lint script does); no name: all.
  const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  let stale = 0;
  for (const pkg of API_PACKAGES.filter((p) => only.length === 0 || only.includes(path.basename(p.dir)))) {
    let report;
    try {
      report = apiReport(pkg);
    } catch (error) {
      stale++;
      console.error(error instanceof Error ? error.message : String(error));
      continue;
    }
    const file = reportPath(pkg);
    let committed = "";
    try {
      committed = readFileSync(file, "utf8");
    } catch {
      // no report yet
    }
    if (committed === report) continue;
    if (update) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, report);
      console.log(`updated ${path.relative(root, file)}`);
    } else {
      stale++;
      console.error(
        `${path.relative(root, file)} is out of date: review the API change, then run pnpm api:update`,
      );
    }
  }
  process.exit(stale === 0 ? 0 : 1);
}
