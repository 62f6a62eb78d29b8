/**
 * Which repository files a script of an interpreter loads besides itself, decided per interpreter:
 * - python: modules it imports by a static `import x` / `from x import …` that Python finds next to the script
 *   (the script's folder is first on `sys.path`): `x.py` is bound; a package folder `x/` or a compiled `x.so`
 *   there is refused;
 * - node, bun, deno, tsx, ts-node: the relative specifiers of `require("./x")`, `import … from "./x"`,
 *   `import("./x")`, resolved as node does (the file, with `.js`, `.json`, `.node`, `.mjs`, `.cjs`, `.ts`…, or a
 *   folder's `index`); a folder with its own `package.json`, `#imports` and URLs are refused;
 * - ruby, perl, php, lua: not read for what they load: a script that loads other files (`require_relative`,
 *   `do FILE`, `include`, `dofile`…) is refused.
 * Any of them that builds what it loads at run time (`importlib`, `require(name)`), or starts other programs
 * (`subprocess`, `child_process`, `system`), is refused: what runs then cannot be named from the text.
 */

import { programName } from "./programs.js";

/** What a script names: files to try in order, each group standing for one import. */
export interface ScriptLoads {
  /** Each import: candidate files relative to the script's folder, in the order the interpreter tries them. */
  imports: { specifier: string; candidates: string[]; folder?: string }[];
}

/** Why a script's loads cannot be named, or what it names. */
export type ScriptImports = ScriptLoads | { refused: string };

const PYTHON_DYNAMIC =
  /\b(__import__|importlib|runpy|execfile|imp\.load_\w+|spec_from_file_location|load_source|sys\.path|exec\s*\()/;
const PYTHON_SPAWNS =
  /\b(subprocess|os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|pty\.spawn|os\.posix_spawn\w*)\b/;

/** The modules a Python script imports statically, by their first name. */
function pythonImports(text: string): ScriptImports {
  const dynamic = PYTHON_DYNAMIC.exec(text);
  if (dynamic) return { refused: `it loads code by names known only when it runs (${dynamic[1] ?? ""})` };
  const spawns = PYTHON_SPAWNS.exec(text);
  if (spawns)
    return { refused: `it starts other programs (${spawns[1] ?? ""}), which Slashi does not follow` };
  // Parenthesised and continued import lists on one line.
  const joined = text
    .replace(/\\\r?\n/g, " ")
    .replace(/\(([^()]*)\)/g, (_, inner: string) => inner.replace(/\s+/g, " "));
  const names = new Set<string>();
  for (const line of joined.split(/\r?\n|;/)) {
    const plain = /^\s*import\s+(.+)$/.exec(line);
    if (plain)
      for (const part of (plain[1] ?? "").split(",")) {
        const name = part.trim().split(/\s+/)[0]?.split(".")[0];
        if (name) names.add(name);
      }
    const from = /^\s*from\s+(\.*)([\w.]*)\s+import\b/.exec(line);
    if (from && from[1] === "") {
      const name = (from[2] ?? "").split(".")[0];
      if (name) names.add(name);
    }
  }
  return {
    imports: [...names].map((name) => ({
      specifier: name,
      candidates: [name, `${name}.py`, `${name}.pyc`, `${name}.so`, `${name}.abi3.so`, `${name}.pyw`],
      folder: name,
    })),
  };
}

const NODE_DYNAMIC =
  /\b(?:require|import)\s*\(\s*(?![\s'"]|`[^`$]*`)|createRequire|process\.dlopen|Module\._load|require\.extensions/;
const NODE_SPAWNS = /\b(child_process|execa|cross-spawn|shelljs|zx|Bun\.spawn\w*|Deno\.(?:Command|run))\b/;
const NODE_EXTENSIONS = [".js", ".json", ".node", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"];

/** The relative specifiers a JavaScript or TypeScript script loads. */
function nodeImports(text: string): ScriptImports {
  const dynamic = NODE_DYNAMIC.exec(text);
  if (dynamic) return { refused: `it loads code by names known only when it runs (${dynamic[0].trim()})` };
  const spawns = NODE_SPAWNS.exec(text);
  if (spawns)
    return { refused: `it starts other programs (${spawns[1] ?? ""}), which Slashi does not follow` };
  const specifiers = new Set<string>();
  const patterns = [
    /\b(?:require|import)\s*\(\s*(['"`])([^'"`]*)\1\s*\)/g,
    /\bfrom\s*(['"])([^'"]*)\1/g,
    /\bimport\s*(['"])([^'"]*)\1/g,
  ];
  for (const pattern of patterns)
    for (const match of text.matchAll(pattern)) specifiers.add(match[2] as string);
  const imports: ScriptLoads["imports"] = [];
  for (const specifier of specifiers) {
    if (
      /^[a-z][a-z0-9+.-]*:/i.test(specifier) &&
      !specifier.startsWith("node:") &&
      !specifier.startsWith("file:")
    )
      return { refused: `it loads ${specifier}, code from outside the repository that Slashi cannot pin` };
    if (specifier.startsWith("#")) return { refused: `it loads ${specifier} through package.json imports` };
    const local = specifier.startsWith("file:") ? specifier.slice(5) : specifier;
    if (
      !local.startsWith("./") &&
      !local.startsWith("../") &&
      !local.startsWith("/") &&
      local !== "." &&
      local !== ".."
    )
      continue;
    imports.push({
      specifier,
      candidates: [local, ...NODE_EXTENSIONS.map((ext) => local + ext)],
      folder: local,
    });
  }
  return { imports };
}

/** Interpreters not read for what they load: any of these in the text refuses the binding. */
const UNREAD: Readonly<Record<string, RegExp>> = {
  ruby: /\b(require_relative|require|load|autoload|eval|instance_eval|system|exec|spawn|IO\.popen|Open3)\b|`|%x/,
  perl: /\b(require|do|use\s+lib|FindBin|eval|system|exec)\b|`|\bqx\b/,
  php: /\b(include|include_once|require|require_once|eval|exec|system|shell_exec|passthru|proc_open|popen)\b|`/,
  lua: /\b(require|dofile|loadfile|load|loadstring|os\.execute|io\.popen)\b/,
};

/**
 * What a script of `interpreter` loads besides itself, by that interpreter's rules, or why that cannot be named.
 * @param interpreter - `python3`, `node`, `ruby`… (without version)
 */
export function scriptImports(interpreter: string, text: string): ScriptImports {
  if (/^python/.test(interpreter)) return pythonImports(text);
  if (["node", "nodejs", "bun", "deno", "tsx", "ts-node"].includes(interpreter)) return nodeImports(text);
  const unread = UNREAD[interpreter];
  if (unread === undefined)
    return { refused: `Slashi does not read ${interpreter} scripts for the files they load` };
  const found = unread.exec(text);
  if (found)
    return {
      refused: `it may load or run other files (${found[0]}), and Slashi does not read ${interpreter} scripts for them`,
    };
  return { imports: [] };
}

/** The interpreter a `#!` line names (through `env` too), without version; `undefined` without one. */
export function shebangInterpreter(head: string): string | undefined {
  if (!head.startsWith("#!")) return undefined;
  const words = (head.slice(2).split("\n")[0] ?? "").trim().split(/\s+/);
  const first = (words[0] ?? "").split("/").pop() ?? "";
  const program =
    first === "env" ? words.slice(1).find((w) => !w.startsWith("-") && !w.includes("=")) : first;
  return program === undefined || program === "" ? undefined : programName(program);
}

/**
 * The words a `#!` line gives its interpreter before the file: Linux passes the rest of the line after the
 * interpreter's path as one word (`#!/bin/bash -e` → `-e`); `env -S` splits it (`#!/usr/bin/env -S bash -x -e`
 * → `-x`, `-e`). Empty without a `#!` line or without words.
 */
export function shebangArguments(head: string): string[] {
  if (!head.startsWith("#!")) return [];
  const line = (head.slice(2).split("\n")[0] ?? "").trim();
  const space = line.search(/\s/);
  if (space < 0) return [];
  const interpreter = line.slice(0, space).split("/").pop() ?? "";
  const rest = line.slice(space).trim();
  if (interpreter !== "env") return rest === "" ? [] : [rest];
  const words = rest.split(/\s+/);
  const program = words.findIndex((w) => !w.startsWith("-") && !w.includes("="));
  if (program < 0) return [];
  // Without -S, env takes the whole rest as one program name, so the words after it never reach a program.
  return words.some((w, i) => i < program && /^(-S|--split-string)/.test(w)) ? words.slice(program + 1) : [];
}
