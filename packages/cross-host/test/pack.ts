// A pack published to the test's verdaccio and installed into the temporary HOME, as a person does with the CLI.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startRegistry, verdaccioBin, type RunningRegistry, type TempHome } from "@slashi/test-utils";

/** Runs `slashi` with extra environment variables and throws when it does not exit 0. */
export type SlashiOk = (args: string[], extraEnv: Record<string, string>) => Promise<void>;

/**
 * Starts verdaccio in `temp`, names it in `registries.json`, publishes `name@1.0.0` with `manifest` as its
 * `slashi-pack.json` and installs it with `ok`. Returns the registry (stop it with `stopRegistry`) and the token's
 * environment for later `slashi pack` calls.
 */
export async function installPack(
  temp: TempHome,
  ok: SlashiOk,
  name: string,
  manifest: unknown,
): Promise<{ registry: RunningRegistry; token: Record<string, string> }> {
  const registry = await startRegistry({
    bin: verdaccioBin,
    dir: path.join(temp.dir, "registry"),
    tls: false,
  });
  const token = { PACK_TOKEN: registry.token };
  writeFileSync(
    path.join(temp.configDir, "registries.json"),
    JSON.stringify({ version: 1, registries: [{ url: registry.url, token: { env: "PACK_TOKEN" } }] }),
  );
  const packDir = path.join(temp.dir, "pack-src");
  mkdirSync(packDir, { recursive: true });
  writeFileSync(
    path.join(packDir, "package.json"),
    JSON.stringify({ name, version: "1.0.0", keywords: ["slashi-pack"], files: [] }),
  );
  writeFileSync(path.join(packDir, "slashi-pack.json"), JSON.stringify(manifest));
  await ok(["pack", "publish", packDir, "--yes"], token);
  await ok(["pack", "install", `${name}@1.0.0`], token);
  return { registry, token };
}
