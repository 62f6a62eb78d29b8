import type { Invocation } from "./argv.js";
import { finding } from "./codes.js";
import type { Finding } from "./types.js";

const CLIENTS = new Set([
  "curl",
  "wget",
  "wget2",
  "nc",
  "ncat",
  "netcat",
  "socat",
  "ssh",
  "scp",
  "sftp",
  "telnet",
  "ftp",
  "lftp",
  "tftp",
  "aria2c",
  "http",
  "https",
  "xh",
  "xhs",
  "mosh",
  "autossh",
  "slogin",
  "rclone",
  "invoke-webrequest",
  "iwr",
  "invoke-restmethod",
  "irm",
  "bitsadmin",
  "certutil",
  "ssh-copy-id",
  "smbclient",
]);

/** rsync reaches another machine with `host:path`, `user@host:path` or `rsync://`. */
function rsyncRemote(args: readonly string[]): boolean {
  return args.some((a) => !a.startsWith("-") && (/^rsync:\/\//i.test(a) || /^[^/:]+:/.test(a)));
}

/** Skips package-manager global options (`--prefix x`, `-C dir`, `--filter x`) to find the verb. */
function verbOf(
  args: readonly string[],
  valued: readonly string[],
): { verb: string | undefined; rest: string[] } {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("-")) return { verb: a.toLowerCase(), rest: args.slice(i + 1) };
    if (!a.includes("=") && valued.includes(a)) i++;
  }
  return { verb: undefined, rest: [] };
}

const JS_VALUED = [
  "--prefix",
  "-C",
  "--dir",
  "--filter",
  "-F",
  "--workspace",
  "-w",
  "--cwd",
  "--registry",
  "--userconfig",
  "--loglevel",
];
const JS_INSTALL = new Set([
  "install",
  "i",
  "in",
  "ins",
  "inst",
  "insta",
  "instal",
  "isnt",
  "isnta",
  "isntal",
  "isntall",
  "add",
  "ci",
  "clean-install",
  "ic",
  "install-clean",
  "isntall-clean",
  "install-test",
  "it",
  "install-ci-test",
  "cit",
  "update",
  "up",
  "upgrade",
  "udpate",
  "rebuild",
  "rb",
  "link",
  "ln",
  "import",
]);
const JS_EXEC = new Set(["exec", "x", "dlx", "create", "innit", "init", "create-vite"]);
const JS_PUBLISH = new Set(["publish", "unpublish", "deprecate", "dist-tag"]);

function javascript(invocation: Invocation): Finding[] {
  const { name, args, command } = invocation;
  if (name === "npx" || name === "pnpx" || name === "bunx") {
    return [
      finding(
        "supply.exec",
        `${name} downloads and runs a package`,
        command,
        args.find((a) => !a.startsWith("-")),
      ),
    ];
  }
  if (!["npm", "pnpm", "yarn", "bun", "cnpm", "corepack"].includes(name)) return [];
  const { verb, rest } = verbOf(args, JS_VALUED);
  if (verb === undefined) {
    return name === "yarn" && !args.some((a) => /^(-v|--version|-h|--help)$/.test(a))
      ? [finding("supply.install", "yarn with no command installs dependencies", command, "yarn")]
      : [];
  }
  if (JS_PUBLISH.has(verb) || (name === "yarn" && verb === "npm" && rest[0] === "publish")) {
    return [finding("supply.publish", `${name} ${verb} publishes a package`, command, verb)];
  }
  if (verb === "init" && !rest.some((a) => !a.startsWith("-"))) return [];
  if (JS_EXEC.has(verb) || (name === "bun" && verb === "x") || (name === "yarn" && verb === "dlx")) {
    return [finding("supply.exec", `${name} ${verb} downloads and runs a package`, command, verb)];
  }
  if (JS_INSTALL.has(verb) || (name === "yarn" && verb === "global") || (name === "pnpm" && verb === "env")) {
    return [
      finding(
        "supply.install",
        `${name} ${verb} installs packages and runs their install scripts`,
        command,
        verb,
      ),
    ];
  }
  return [];
}

function python(invocation: Invocation): Finding[] {
  const { name, args, command } = invocation;
  let pipArgs: string[] | undefined;
  if (/^pip[0-9.]*$/.test(name)) pipArgs = args;
  if (/^(python|pypy)[0-9.]*$/.test(name) || name === "py") {
    const m = args.findIndex((a) => a === "-m" || /^-[A-Za-z]*m$/.test(a));
    if (m >= 0 && /^pip[0-9.]*$/.test(args[m + 1] ?? "")) pipArgs = args.slice(m + 2);
    else if (m >= 0 && args[m + 1] === "pipx") return pipx(args.slice(m + 2), invocation);
  }
  if (name === "uv") {
    const { verb, rest } = verbOf(args, ["--directory", "--project", "--python", "-p"]);
    if (verb === "pip") pipArgs = rest;
    else if (verb === "add" || verb === "sync")
      return [finding("supply.install", `uv ${verb} installs packages`, command, verb)];
    else if (verb === "tool") {
      const sub = rest.find((a) => !a.startsWith("-"));
      if (sub === "run")
        return [finding("supply.exec", "uv tool run downloads and runs a package", command, sub)];
      if (sub === "install" || sub === "upgrade")
        return [finding("supply.install", `uv tool ${sub} installs a package`, command, sub)];
    } else if (verb === "publish")
      return [finding("supply.publish", "uv publish publishes a package", command, verb)];
  }
  if (name === "uvx")
    return [
      finding(
        "supply.exec",
        "uvx downloads and runs a package",
        command,
        args.find((a) => !a.startsWith("-")),
      ),
    ];
  if (name === "pipx") return pipx(args, invocation);
  if (
    name === "poetry" ||
    name === "pdm" ||
    name === "hatch" ||
    name === "pipenv" ||
    name === "conda" ||
    name === "mamba" ||
    name === "micromamba"
  ) {
    const { verb } = verbOf(args, ["-C", "--directory", "-n", "--name", "-p", "--prefix"]);
    if (verb === "add" || verb === "install" || verb === "update" || verb === "sync" || verb === "create") {
      return [finding("supply.install", `${name} ${verb} installs packages`, command, verb)];
    }
    if (verb === "publish")
      return [finding("supply.publish", `${name} publish publishes a package`, command, verb)];
  }
  if (name === "twine" && args.includes("upload"))
    return [finding("supply.publish", "twine upload publishes a package", command, "upload")];
  if (pipArgs !== undefined) {
    const { verb } = verbOf(pipArgs, [
      "-r",
      "--requirement",
      "-c",
      "--constraint",
      "--index-url",
      "-i",
      "--python",
    ]);
    if (verb === "install" || verb === "download" || verb === "wheel") {
      return [
        finding(
          "supply.install",
          `pip ${verb} fetches packages and may run their build scripts`,
          command,
          verb,
        ),
      ];
    }
  }
  return [];
}

function pipx(args: readonly string[], invocation: Invocation): Finding[] {
  const verb = args.find((a) => !a.startsWith("-"));
  if (verb === "run")
    return [finding("supply.exec", "pipx run downloads and runs a package", invocation.command, verb)];
  if (verb === "install" || verb === "inject" || verb === "upgrade") {
    return [finding("supply.install", `pipx ${verb} installs a package`, invocation.command, verb)];
  }
  return [];
}

/** The programs {@link others} has rules for. */
const OTHER_INSTALLERS = new Set([
  "cargo",
  "go",
  "gem",
  "bundle",
  "bundler",
  "brew",
  "apt",
  "apt-get",
  "dnf",
  "yum",
  "zypper",
  "apk",
  "pacman",
  "yay",
  "paru",
  "snap",
  "flatpak",
  "choco",
  "winget",
  "scoop",
  "composer",
  "dotnet",
  "deno",
  "docker",
  "podman",
]);

function others(invocation: Invocation): Finding[] {
  const { name, args, command } = invocation;
  if (!OTHER_INSTALLERS.has(name)) return [];
  const words = args.filter((a) => !a.startsWith("-"));
  const verb = words[0]?.toLowerCase();
  const install = (what: string): Finding[] => [
    finding("supply.install", `${what} installs packages`, command, verb),
  ];
  switch (name) {
    case "cargo":
      if (verb === "install" || verb === "binstall") return install(`cargo ${verb}`);
      if (verb === "publish")
        return [finding("supply.publish", "cargo publish publishes a crate", command, verb)];
      return [];
    case "go":
      if (verb === "install" || verb === "get") return install(`go ${verb}`);
      if (verb === "run" && words.slice(1).some((w) => /@/.test(w)))
        return [finding("supply.exec", "go run pkg@version downloads and runs a module", command, verb)];
      return [];
    case "gem":
      if (verb === "install" || verb === "update") return install(`gem ${verb}`);
      if (verb === "push") return [finding("supply.publish", "gem push publishes a gem", command, verb)];
      return [];
    case "bundle":
    case "bundler":
      return verb === undefined || verb === "install" || verb === "update" || verb === "add"
        ? install("bundle install")
        : verb === "exec"
          ? []
          : [];
    case "brew":
      return verb === "install" || verb === "reinstall" || verb === "upgrade" || verb === "tap"
        ? install(`brew ${verb}`)
        : [];
    case "apt":
    case "apt-get":
    case "dnf":
    case "yum":
    case "zypper":
      return verb === "install" || verb === "upgrade" || verb === "dist-upgrade" || verb === "reinstall"
        ? install(`${name} ${verb}`)
        : [];
    case "apk":
      return verb === "add" ? install("apk add") : [];
    case "pacman":
    case "yay":
    case "paru":
      return args.some((a) => /^-S|^-U|^--sync|^--upgrade/.test(a)) ? install(name) : [];
    case "snap":
    case "flatpak":
    case "choco":
    case "winget":
    case "scoop":
      return verb === "install" || verb === "upgrade" || verb === "update" ? install(`${name} ${verb}`) : [];
    case "composer":
      return verb === "require" ||
        verb === "install" ||
        verb === "update" ||
        verb === "global" ||
        verb === "create-project"
        ? install(`composer ${verb}`)
        : [];
    case "dotnet":
      if (verb === "add" && words[1] === "package") return install("dotnet add package");
      if (verb === "tool" && (words[1] === "install" || words[1] === "run" || words[1] === "exec"))
        return install(`dotnet tool ${words[1]}`);
      if (verb === "nuget" && words[1] === "push")
        return [finding("supply.publish", "dotnet nuget push publishes a package", command, "push")];
      return [];
    case "deno":
      if (verb === "install" || verb === "add") return install(`deno ${verb}`);
      if (verb === "run" && words.slice(1).some((w) => /^(https?|npm|jsr):/i.test(w))) {
        return [finding("supply.exec", "deno run of a remote module downloads and runs it", command, verb)];
      }
      if (verb === "publish")
        return [finding("supply.publish", "deno publish publishes a package", command, verb)];
      return [];
    case "docker":
    case "podman":
      return verb === "push"
        ? [finding("supply.publish", `${name} push publishes an image`, command, verb)]
        : [];
    default:
      return [];
  }
}

/** Whether the invocation connects to other machines: the `net.client` finding of {@link classifyNetwork}. */
export function isNetworkClient(invocation: Invocation): boolean {
  return CLIENTS.has(invocation.name) || (invocation.name === "rsync" && rsyncRemote(invocation.args));
}

/** Network clients and supply-chain actions (installs, one-off package runs, publishing). */
export function classifyNetwork(invocation: Invocation): Finding[] {
  const { name, command } = invocation;
  const out: Finding[] = [];
  if (CLIENTS.has(name)) out.push(finding("net.client", `${name} connects to other machines`, command, name));
  else if (isNetworkClient(invocation))
    out.push(finding("net.client", "rsync copies to or from another machine", command, name));
  out.push(...javascript(invocation), ...python(invocation), ...others(invocation));
  return out;
}
