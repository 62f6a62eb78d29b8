// Measures packs against a real local verdaccio: installing a small pack (download, integrity, signature
// lookup, strict extraction, atomic install, lockfile) and searching with 1,000 packs published, each beside
// `npm view` (and `npm search`) of the same registry in the same run as the baseline. Prints numbers and
// ratios; asserts nothing. Run with `pnpm bench:packs` from the repository root (builds dist first).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import {
  PackManager,
  RegistryClient,
  createTarball,
  preparePublish,
  publishDocument,
  publishPack,
  resolveRegistry,
  scaffoldPack,
} from "../dist/index.js";
import { startRegistry, stopRegistry, verdaccioBin } from "@slashi/test-utils/verdaccio";

const run = promisify(execFile);
const PACKS = Number(process.env.BENCH_PACKS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(rounds, fn) {
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

const fmt = (t) => `median ${t.median.toFixed(1)} ms (min ${t.min.toFixed(1)}, max ${t.max.toFixed(1)})`;

if (!existsSync(verdaccioBin)) {
  console.error(`verdaccio is not installed (${verdaccioBin}); run e2e/registry/install.sh first`);
  process.exit(1);
}

const root = await mkdtemp(path.join(tmpdir(), "slashi-bench-packs-"));
let registry;
try {
  registry = await startRegistry({ bin: verdaccioBin, dir: path.join(root, "registry"), tls: false });
  const resolved = await resolveRegistry({ url: registry.url, token: { env: "BENCH_TOKEN" } });
  const env = { env: { BENCH_TOKEN: registry.token } };
  const manager = (packsDir) => new PackManager({ packsDir, registries: [resolved], tokenEnvironment: env });
  const npmrc = path.join(root, "npmrc");
  await writeFile(npmrc, "");
  const npmEnv = {
    ...process.env,
    npm_config_update_notifier: "false",
    npm_config_cache: path.join(root, "npm-cache"),
  };
  const npm = (...args) =>
    run("npm", [...args, "--registry", registry.url, "--userconfig", npmrc], { env: npmEnv });

  // A small pack, published the way `slashi pack publish` does.
  const src = path.join(root, "small");
  await scaffoldPack(src, { name: "@bench/small", version: "1.0.0" });
  const publisher = manager(path.join(root, "unused"));
  await publishPack(await publisher.client("@bench/small", true), await preparePublish(src));

  console.log(`verdaccio 6.8.0 on ${registry.url}, node ${process.version}, ${ROUNDS} rounds each\n`);

  const install = await time(ROUNDS, async (i) => {
    const result = await manager(path.join(root, `packs-${i}`)).install("@bench/small");
    if (result.version !== "1.0.0") throw new Error("unexpected version");
  });
  const view = await time(ROUNDS, () => npm("view", "@bench/small", "--json"));
  console.log("install a small pack (@bench/small)");
  console.log(`  slashi install        ${fmt(install)}`);
  console.log(`  npm view (baseline)   ${fmt(view)}`);
  console.log(`  ratio install / npm view: ${(install.median / view.median).toFixed(2)}\n`);

  // 1,000 packs through the publish API, 8 at a time.
  const client = new RegistryClient(resolved, { token: registry.token });
  const publishStart = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < PACKS; i = next++) {
      const name = `@bench/pack-${String(i).padStart(4, "0")}`;
      const raw = {
        name,
        version: "1.0.0",
        description: `bench pack ${i}`,
        keywords: ["slashi-pack", "bench"],
      };
      const manifest = {
        version: 1,
        commands: [{ name: `cmd${i}`, steps: [{ type: "notify", message: `pack ${i}` }] }],
      };
      const tarball = createTarball([
        { path: "package/package.json", data: Buffer.from(JSON.stringify(raw)) },
        { path: "package/slashi-pack.json", data: Buffer.from(JSON.stringify(manifest)) },
      ]);
      await client.publish(name, publishDocument({ name, version: "1.0.0", raw }, tarball, resolved.url));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const publishMs = performance.now() - publishStart;
  console.log(
    `published ${PACKS} packs in ${(publishMs / 1000).toFixed(1)} s (${(PACKS / (publishMs / 1000)).toFixed(0)} per second)\n`,
  );

  const last = `pack-${String(PACKS - 1).padStart(4, "0")}`;
  const searcher = manager(path.join(root, "search"));
  let hits = 0;
  const search = await time(ROUNDS, async () => {
    hits = (await searcher.search(last, 20)).length;
  });
  let many = 0;
  const searchMany = await time(ROUNDS, async () => {
    many = (await searcher.search("bench", 250)).length;
  });
  const npmSearch = await time(ROUNDS, () => npm("search", last, "--json"));
  const view2 = await time(ROUNDS, () => npm("view", `@bench/${last}`, "--json"));
  console.log(`search with ${PACKS + 1} packs published`);
  console.log(`  slashi search "${last}" (${hits} hit)   ${fmt(search)}`);
  console.log(`  slashi search "bench" (${many} hits)      ${fmt(searchMany)}`);
  console.log(`  npm search "${last}"                ${fmt(npmSearch)}`);
  console.log(`  npm view @bench/${last} (baseline)  ${fmt(view2)}`);
  console.log(`  ratio search / npm view:   ${(search.median / view2.median).toFixed(2)}`);
  console.log(`  ratio search / npm search: ${(search.median / npmSearch.median).toFixed(2)}`);
} finally {
  if (registry) await stopRegistry(registry);
  await rm(root, { recursive: true, force: true });
}
