/**
 * Installed packs' commands for the runtime's command catalogue: every host lists and runs pack commands from
 * what this reads (`slashi list`/`run`, MCP `list_commands`/`run_command`, the extension's catalogue).
 */
import { isSlashiError, SlashiError, SlashiErrorCode } from "@slashi/core";
import type { InstalledPackCommands, PackCommandLoader } from "@slashi/runtime";
import { PackManager } from "./manager.js";

/**
 * The runtime's pack command loader: the commands of each pack installed in `packsDir`, checked against what was
 * installed. A pack edited on disk (`PACK_INTEGRITY`) or with a malformed manifest is an error result of its own,
 * and the other packs still load. It reads only what is installed and never contacts a registry.
 */
export const loadInstalledPackCommands: PackCommandLoader = async ({ packsDir }) => {
  const manager = new PackManager({ packsDir, registries: [] });
  const out: InstalledPackCommands[] = [];
  for (const { name, entry } of await manager.list()) {
    try {
      const pack = await manager.loadInstalled(name);
      out.push({
        id: name,
        version: pack.entry.version,
        integrity: pack.entry.integrity,
        commands: pack.content.manifest.commands,
      });
    } catch (error) {
      out.push({
        id: name,
        version: entry.version,
        error: isSlashiError(error)
          ? error
          : new SlashiError(SlashiErrorCode.PACK_INTEGRITY, `${name}@${entry.version}: ${String(error)}`, {
              pack: name,
            }),
      });
    }
  }
  return out;
};
