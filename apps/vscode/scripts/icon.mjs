// Renders media/icon.svg to media/icon.png (256×256, transparent corners), the icon the Marketplace and Open VSX
// show. Run it after editing the SVG: node scripts/icon.mjs. It uses the headless Chromium and playwright-core
// that the end-to-end host brings (bash e2e/install-host.sh); the PNG is committed, so packaging needs neither.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const host = createRequire(join(root, "../../e2e/host/package.json"));
const { chromium } = host("playwright-core");
const SIZE = 256;

const svg = readFileSync(join(root, "media/icon.svg"), "utf8");
const browser = await chromium.launch({
  executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace("<svg ", `<svg style="display:block" `)}</body></html>`,
  );
  await page.screenshot({ path: join(root, "media/icon.png"), omitBackground: true });
} finally {
  await browser.close();
}
