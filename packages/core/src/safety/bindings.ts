/**
 * Variables a line binds to known words: `for f in src/*.ts; do wc -l "$f"; done` and `dir=src; ls "$dir"`.
 * A variable counts only when the line binds it exactly once, to words without expansions, and mentions it
 * nowhere else than in `$NAME`/`${NAME}`; anything else leaves it unknown.
 */

/** Names whose value comes from the shell or changes how it reads words: never bound from the line. */
const RESERVED = new Set(["HOME", "PWD", "OLDPWD", "IFS", "CDPATH", "GLOBIGNORE", "BASH_ENV", "ENV", "PATH"]);

const FOR_LOOP = /\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+([^;\n]*?)\s*(?:;|\n)\s*do\b/g;
const ASSIGNMENT =
  /(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=((?:'[^']*'|"[^"$`\\]*"|[^\s;&|()<>'"$`\\])*)(?=[\s;&|)]|$)/g;

/** Splits raw loop words at white space outside quotes; `undefined` when a word has an expansion. */
function splitWords(raw: string): string[] | undefined {
  const words: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const c of raw) {
    if (quote !== null) {
      current += c;
      if (c === quote) quote = null;
      continue;
    }
    if (c === "$" || c === "`" || c === "\\" || c === "(" || c === ")") return undefined;
    if (c === "'" || c === '"') quote = c;
    if (/\s/.test(c)) {
      if (current !== "") words.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  if (quote !== null) return undefined;
  if (current !== "") words.push(current);
  return words;
}

function escapeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "");
}

/**
 * The variables a line binds to known raw words, by name. Values are raw shell text (quotes kept) so the
 * reader applies tilde, glob and brace rules itself.
 * @param input - the whole command line
 */
export function lineVariables(input: string): ReadonlyMap<string, readonly string[]> | undefined {
  if (!input.includes("$")) return undefined;
  const found = new Map<string, string[] | null>();
  const bind = (name: string, words: string[] | undefined): void => {
    if (RESERVED.has(name)) return;
    found.set(name, found.has(name) || words === undefined ? null : words);
  };
  for (const m of input.matchAll(FOR_LOOP)) bind(m[1]!, splitWords(m[2]!));
  for (const m of input.matchAll(ASSIGNMENT)) bind(m[1]!, splitWords(m[2]!)?.slice(0, 1));
  let out: Map<string, readonly string[]> | undefined;
  for (const [name, words] of found) {
    if (words === null || words.length === 0) continue;
    const safe = escapeName(name);
    const mentions = input.match(new RegExp(`\\b${safe}\\b`, "g"))?.length ?? 0;
    const uses = input.match(new RegExp(`\\$${safe}\\b|\\$\\{${safe}\\}`, "g"))?.length ?? 0;
    if (mentions !== uses + 1) continue;
    out ??= new Map();
    out.set(name, words);
  }
  return out;
}
