import { mkdir, open, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { SlashiError, SlashiErrorCode } from "@slashi/core";

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Replaces `file` with `content` so readers see the old or the new file, never a mix: writes a temp file in the
 * same directory (mode 0600), fsyncs it, renames it over the target and fsyncs the directory (POSIX). On
 * Windows a rename blocked by a reader is retried briefly. Failures throw `IO_FAILED`; the target is untouched.
 */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const dir = path.dirname(file);
  // node:crypto is loaded on first use: a decision that writes nothing never pays for it.
  const { randomBytes } = await import("node:crypto");
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const handle = await open(temp, "wx", 0o600);
    try {
      await handle.writeFile(content, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await rename(temp, file);
        break;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (
          process.platform !== "win32" ||
          attempt >= 10 ||
          (code !== "EPERM" && code !== "EACCES" && code !== "EBUSY")
        ) {
          throw error;
        }
        await sleep(10 * (attempt + 1));
      }
    }
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new SlashiError(
      SlashiErrorCode.IO_FAILED,
      `cannot write ${file}: ${code}`,
      { file },
      { cause: error },
    );
  }
  if (process.platform !== "win32") {
    try {
      const dirHandle = await open(dir, "r");
      try {
        await dirHandle.sync();
      } finally {
        await dirHandle.close();
      }
    } catch {
      // Some file systems refuse fsync on a directory; the rename itself has happened.
    }
  }
}
