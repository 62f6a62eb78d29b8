/**
 * Containers that are the host in disguise: privileged or host-namespace containers, and containers that
 * mount `/`, the home directory, a system folder, a secret place or the engine's socket.
 */
import type { Invocation } from "./argv.js";
import { finding } from "./codes.js";
import { knowPath, patternSecret } from "./path-knowledge.js";
import { catastropheOf } from "./targets.js";
import type { Finding, SafetyContext } from "./types.js";

const ENGINES = new Set(["docker", "podman", "nerdctl", "finch", "lima", "colima", "buildah"]);

/** Options (as `--name=value` or `--name value`) that give a container the host's powers. */
const HOST_POWERS: readonly [RegExp, RegExp][] = [
  [/^--privileged$/, /^(true)?$/i],
  [/^--(pid|userns|ipc|uts|cgroupns)$/, /^host$/i],
  [/^--cap-add$/, /^(cap_)?(all|sys_admin|sys_ptrace|sys_module|dac_read_search|sys_rawio|bpf)$/i],
  [
    /^--security-opt$/,
    /^(seccomp[=:]unconfined|apparmor[=:]unconfined|label[=:]disable|systempaths[=:]unconfined)$/i,
  ],
  [/^--device$/, /^\/dev\/(sd|nvme|mem|kmem|disk|vd|xvd|mapper)/i],
];

/** Engine sockets: mounting one hands the container the engine, which is root on the host. */
const SOCKET = /(^|\/)(docker|podman|containerd)(\.sock)?(\/|$)|\.sock$/i;

/** The host side of a `-v SRC:DST[:opts]` or `--mount type=bind,source=SRC,…` value, when it is a path. */
function mountSources(option: string, value: string): string[] {
  if (option === "--mount") {
    const out: string[] = [];
    for (const part of value.split(",")) {
      const m = /^(source|src)=(.*)$/i.exec(part.trim());
      if (m) out.push(m[2]!);
    }
    return out;
  }
  // -v: the source ends at the first `:` that is not part of a Windows drive
  const colon = value.indexOf(":", /^[A-Za-z]:[\\/]/.test(value) ? 2 : 0);
  const source = colon < 0 ? value : value.slice(0, colon);
  return /^[/~.$]/.test(source) ? [source] : [];
}

/**
 * Privileged containers and host mounts (`docker|podman run --privileged`, `-v /:/host`, `-v ~:/h`,
 * `--mount type=bind,source=/`, `--pid=host`). Every word after the engine is looked at, so an option hidden
 * after the image is still seen: a false `deny` there is the safe mistake.
 */
export function classifyContainers(invocation: Invocation, context: SafetyContext): Finding[] {
  if (!ENGINES.has(invocation.name)) return [];
  const { args, command } = invocation;
  const out: Finding[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!word.startsWith("-")) continue;
    const eq = word.indexOf("=");
    const name = eq > 0 && word.startsWith("--") ? word.slice(0, eq) : word;
    const inline = eq > 0 && word.startsWith("--") ? word.slice(eq + 1) : undefined;
    for (const [option, value] of HOST_POWERS) {
      if (!option.test(name)) continue;
      const given = inline ?? (name === "--privileged" ? "" : (args[i + 1] ?? ""));
      if (value.test(given))
        out.push(
          finding(
            "container.privileged",
            `${invocation.name} ${word} gives the container the host's powers`,
            command,
            word,
          ),
        );
    }
    const isVolume = name === "-v" || name === "--volume" || /^-v./.test(word);
    if (!isVolume && name !== "--mount") continue;
    const value = inline ?? (/^-v./.test(word) ? word.slice(2) : args[i + 1]);
    if (value === undefined) continue;
    const dynamic =
      inline === undefined && !/^-v./.test(word) ? invocation.dynamic.has(i + 1) : invocation.dynamic.has(i);
    for (const source of mountSources(name === "--mount" ? "--mount" : "-v", value)) {
      if (hostMount(source, dynamic, context))
        out.push(
          finding(
            "container.host-mount",
            `${invocation.name} mounts ${source} from the host into the container`,
            command,
            source,
          ),
        );
    }
  }
  return out;
}

/** Whether a mount source is the root, the home directory, a system folder, a secret place or a socket. */
function hostMount(source: string, dynamic: boolean, context: SafetyContext): boolean {
  if (SOCKET.test(source)) return true;
  const knowledge = knowPath(source, dynamic || /[$`*?[{]/.test(source), context);
  if (knowledge.kind === "unknown") return false;
  return knowledge.patterns.some((pattern) => {
    const path = `/${pattern.join("/")}`;
    const catastrophe = catastropheOf(path, context, true);
    return (
      (catastrophe !== undefined && catastrophe !== "workspace-root") ||
      patternSecret(pattern, context) !== undefined
    );
  });
}
