/**
 * Options and operands that make a tool usually thought read-only change state outside its output: `date` setting
 * the clock (`-s`, `--set`, any abbreviation, a cluster such as `-us`, or a `MMDDhhmm` operand), `printf -v`
 * assigning a shell variable (`-v NAME`, glued `-vNAME`), `file -C` writing a compiled magic file. Options are
 * read with {@link parseOptions}, the way the tools parse them, so every spelling counts.
 */
import { hasOption, operands, parseOptions, type Invocation, type OptionSpec } from "./argv.js";
import { DATE_OPTIONS } from "../shell/tool-options.js";
import { finding } from "./codes.js";
import type { Finding } from "./types.js";

/** bash's `printf` builtin takes one option, `-v NAME`, before the format. */
const PRINTF_SPEC: OptionSpec = { shortValue: "v", stopAtOperand: true };

const FILE_SPEC: OptionSpec = {
  shortValue: "efFmP",
  longValue: ["exclude", "exclude-quiet", "files-from", "separator", "magic-file", "parameter", "extension"],
};

/** Findings for options and operands of `date`, `printf` and `file` that change state. */
export function classifyStateOptions(invocation: Invocation): Finding[] {
  const { name, args, command } = invocation;
  switch (name) {
    case "date": {
      const parsed = parseOptions(args, DATE_OPTIONS);
      if (hasOption(parsed, "s", "set")) {
        return [finding("tool.state-change", "date -s/--set sets the system clock", command)];
      }
      const setting = operands(parsed).find((p) => !p.name.startsWith("+"));
      return setting
        ? [finding("tool.state-change", `date ${setting.name} sets the system clock`, command, setting.name)]
        : [];
    }
    case "printf":
      return hasOption(parseOptions(args, PRINTF_SPEC), "v")
        ? [
            finding(
              "tool.state-change",
              "printf -v assigns a shell variable that later commands use",
              command,
            ),
          ]
        : [];
    case "file":
      return hasOption(parseOptions(args, FILE_SPEC), "C", "compile")
        ? [finding("write.file", "file -C writes a compiled magic file", command)]
        : [];
    default:
      return [];
  }
}
