/**
 * Secrets in the environment: commands that print the environment or list variables, and expansions of
 * variables whose names look like secrets.
 */
import { ENV_OPTIONS } from "../shell/tool-options.js";
import { operands, parseOptions, type Invocation } from "./argv.js";
import { finding, lineFinding } from "./codes.js";
import type { Finding } from "./types.js";

/**
 * Variable names that look like secrets (case-insensitive): tokens, keys, passwords, credentials, auth
 * material, and the prefixes of cloud, forge and registry credentials.
 */
const SECRET_NAME =
  /TOKEN|SECRET|PASSW(?:OR)?D|PASSPHRASE|CREDENTIAL|KEY|AUTH(?!OR)|COOKIE|PRIVATE|_PASS$|^PASS$|_PWD$|_DSN$|DATABASE_URL|^(?:AWS|GITHUB|GH|GITLAB|NPM|PYPI|AZURE|ARM|GOOGLE|GCP|GCLOUD|CLOUDSDK|OPENAI|ANTHROPIC|GEMINI|SLACK|STRIPE|TWILIO|VAULT|DOCKER|HEROKU|DIGITALOCEAN|CLOUDFLARE|SENTRY|DATADOG|HF|HUGGINGFACE|CI_JOB|CODECOV|SNYK|SONAR|TF_VAR|CARGO_REGISTRY|TWINE|GPG|SSH_AUTH)_|^KUBECONFIG$|^PGPASSWORD$|^MYSQL_PWD$/i;

/** True when a variable name looks like it holds a secret (`GITHUB_TOKEN`, `db_password`, `AWS_PROFILE`). */
export function isSecretLikeName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** `$NAME`, `${NAME…}`, `${#NAME}`, `${!NAME}` in shell text; group 1 is the name. */
const EXPANSION = /\$\{?[#!]?([A-Za-z_][A-Za-z0-9_]*)/g;
/** `${!prefix*}` and `${!prefix@}` list the names of variables. */
const NAME_LISTING = /\$\{![A-Za-z_][A-Za-z0-9_]*[*@]\}/;

/**
 * Findings for shell text that expands a secret-looking variable or lists variable names. The text is read as
 * written, quotes included, so `'$TOKEN'` handed to another interpreter counts too.
 * @param text - the whole command line
 */
export function environmentExpansions(text: string): Finding[] {
  if (!text.includes("$")) return [];
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(EXPANSION)) {
    const name = m[1]!;
    if (seen.has(name) || !isSecretLikeName(name)) continue;
    seen.add(name);
    out.push(
      lineFinding(
        "secret.env-variable",
        `the line expands $${name}, a variable whose name says it holds a secret`,
        name,
      ),
    );
  }
  if (NAME_LISTING.test(text))
    out.push(lineFinding("secret.environment", "`${!prefix*}` lists the names of variables"));
  return out;
}

/** BSD-style `ps` letters (no dash) with `e`, or an output format naming `environ`, show environments. */
function psShowsEnvironment(args: readonly string[]): boolean {
  return args.some((a) => /^[a-zA-Z]*e[a-zA-Z]*$/.test(a) || /environ/i.test(a));
}

/** jq programs that read the environment: `env`, `$ENV`. */
const JQ_ENV = /(^|[^A-Za-z0-9_.$])env\b|\$ENV\b|\$__prog_env/;

/**
 * Commands that print the environment or list variables: `printenv` (all, or a secret-looking name), `env`
 * with nothing to run, bare `set`, `export`/`export -p`, `declare`/`typeset` listing forms, `compgen -v|-e`,
 * `jq` programs using `env`/`$ENV`, awk programs using `ENVIRON`, `ps e`.
 */
export function classifyEnvironment(invocation: Invocation): Finding[] {
  const { name, args, command } = invocation;
  const dump = (what: string): Finding[] => [finding("secret.environment", what, command, name)];
  const names = args.filter((a) => !a.startsWith("-"));
  switch (name) {
    case "printenv":
      if (names.length === 0) return dump("printenv prints every environment variable");
      return names.some(isSecretLikeName) ? dump("printenv prints a variable that looks like a secret") : [];
    case "env": {
      const parsed = parseOptions(args, ENV_OPTIONS);
      const rest = operands(parsed).filter((p) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(p.name));
      return rest.length === 0 ? dump("env with no command prints the environment") : [];
    }
    case "set":
      return args.length === 0 ? dump("set with no arguments prints every variable") : [];
    case "export":
    case "readonly":
    case "local":
      return names.length === 0 && args.every((a) => /^-[a-z]*p?[a-z]*$/.test(a) && !/n/.test(a))
        ? dump(`${name} with no names lists variables`)
        : [];
    case "declare":
    case "typeset": {
      const bare = names.filter((n) => !n.includes("="));
      if (names.length === 0 && !args.some((a) => /^-[a-zA-Z]*[fF]/.test(a)))
        return dump(`${name} with no names lists variables`);
      return args.some((a) => /^-[a-zA-Z]*p/.test(a)) && bare.some(isSecretLikeName)
        ? dump(`${name} -p prints a variable that looks like a secret`)
        : [];
    }
    case "compgen":
      return args.some((a) => /^-[a-zA-Z]*[ve]/.test(a) || a === "variable" || a === "export")
        ? dump("compgen lists variable names")
        : [];
    case "jq":
    case "gojq":
    case "jaq":
      return args.some((a, i) => JQ_ENV.test(a) || (invocation.dynamic.has(i) && !a.startsWith("-")))
        ? dump(`${name} reads the environment (env, $ENV) or runs a program computed at run time`)
        : [];
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      return args.some((a) => /ENVIRON/.test(a)) ? dump(`${name} reads ENVIRON`) : [];
    case "ps":
      return psShowsEnvironment(args) ? dump("ps e shows the environment of processes") : [];
    case "systemctl":
      return args.includes("show-environment")
        ? dump("systemctl show-environment prints the environment")
        : [];
    case "tmux":
      return args.some((a) => a === "show-environment" || a === "showenv")
        ? dump("tmux show-environment prints the environment")
        : [];
    default:
      return [];
  }
}
