import { describe, expect, it } from "vitest";
import { cmd, ctx } from "../../test/safety/command.js";
import { invocationOf } from "./argv.js";
import { classifyDestroyers, detectForkBomb, isBlockDevice } from "./destroy.js";

function codes(text: string): string[] {
  return classifyDestroyers(invocationOf(cmd(text))!, ctx).map((f) => f.code);
}

describe("destroyers", () => {
  it.each([
    ["mkfs /dev/sda1", "destroy.filesystem"],
    ["mkfs.ext4 /dev/sda1", "destroy.filesystem"],
    ["mkfs.vfat -F 32 /dev/sdb1", "destroy.filesystem"],
    ["/sbin/mkfs.xfs -f /dev/nvme0n1p2", "destroy.filesystem"],
    ["mke2fs /dev/sdb", "destroy.filesystem"],
    ["mkswap /dev/sdb2", "destroy.filesystem"],
    ["wipefs -a /dev/sda", "destroy.filesystem"],
    ["newfs_hfs /dev/disk2s1", "destroy.filesystem"],
    ["fdisk /dev/sda", "destroy.partition"],
    ["sfdisk /dev/sda", "destroy.partition"],
    ["parted /dev/sda mklabel gpt", "destroy.partition"],
    ["sgdisk --zap-all /dev/sda", "destroy.partition"],
    ["gdisk /dev/nvme0n1", "destroy.partition"],
    ["dd if=/dev/zero of=/dev/sda", "destroy.block-device"],
    ["dd if=image.iso of=/dev/disk2 bs=4m", "destroy.block-device"],
    ["dd of=/dev/nvme0n1 if=x", "destroy.block-device"],
    ["dd if=x of=/dev/mmcblk0", "destroy.block-device"],
    ["dd if=x of=/dev/mapper/root", "destroy.block-device"],
    ["dd if=x of=/dev/xvda", "destroy.block-device"],
    ["dd if=x of=/dev/vdb", "destroy.block-device"],
    ["dd if=x of=/dev/hda", "destroy.block-device"],
    ["dd if=x of=/dev/rdisk3", "destroy.block-device"],
    ["dd if=x of=/dev/mem", "destroy.block-device"],
    ["shred /dev/sda", "destroy.block-device"],
    ["cp image.iso /dev/sdb", "destroy.block-device"],
    ["tee /dev/sda", "destroy.block-device"],
    ["chmod -R 777 /", "destroy.permissions"],
    ["chmod 777 /", "destroy.permissions"],
    ["chmod -R 000 ~", "destroy.permissions"],
    ["chown -R nobody /etc", "destroy.permissions"],
    ["chown -R me:me /usr", "destroy.permissions"],
    ["chgrp -R staff /", "destroy.permissions"],
    ["chmod --recursive 700 $HOME", "destroy.permissions"],
    ["chmod -R 755 /usr/*", "destroy.permissions"],
    ["chmod -R u+w /var/lib", "destroy.permissions"],
    ["kill -9 -1", "destroy.kill-all"],
    ["kill -KILL -1", "destroy.kill-all"],
    ["kill -SIGKILL -1", "destroy.kill-all"],
    ["kill -s KILL -1", "destroy.kill-all"],
    ["kill -- -1", "destroy.kill-all"],
    ["kill -15 -1", "destroy.kill-all"],
    ["killall5", "destroy.kill-all"],
    ["killall5 -9", "destroy.kill-all"],
    ["pkill -9 .", "destroy.kill-all"],
    ["pkill .*", "destroy.kill-all"],
    ["pkill -f .", "destroy.kill-all"],
    ["pkill -u dev", "destroy.kill-all"],
    ["shutdown -h now", "destroy.power"],
    ["shutdown now", "destroy.power"],
    ["reboot", "destroy.power"],
    ["poweroff", "destroy.power"],
    ["halt", "destroy.power"],
    ["init 0", "destroy.power"],
    ["init 6", "destroy.power"],
    ["telinit 0", "destroy.power"],
    ["systemctl poweroff", "destroy.power"],
    ["systemctl reboot", "destroy.power"],
    ["systemctl halt", "destroy.power"],
    ["systemctl -i reboot", "destroy.power"],
    ["Stop-Computer", "destroy.power"],
    ["kubectl delete pod x", "destroy.infrastructure"],
    ["kubectl -n prod delete deployment api", "destroy.infrastructure"],
    ["terraform destroy", "destroy.infrastructure"],
    ["terraform -chdir=infra destroy -auto-approve", "destroy.infrastructure"],
    ["terraform apply -destroy", "destroy.infrastructure"],
    ["tofu destroy", "destroy.infrastructure"],
    ["pulumi destroy", "destroy.infrastructure"],
    ["crontab -r", "destroy.crontab"],
    ["crontab -ir", "destroy.crontab"],
    ["crontab -u root -r", "destroy.crontab"],
    ["aws s3 rm s3://bucket --recursive", "destroy.bulk-remote"],
    ["aws s3 rb s3://bucket --force", "destroy.bulk-remote"],
    ["docker system prune -a", "destroy.bulk-remote"],
    ["docker volume prune", "destroy.bulk-remote"],
    ["podman image prune -af", "destroy.bulk-remote"],
    ["helm uninstall api", "destroy.bulk-remote"],
    ["gsutil -m rm -r gs://b", "destroy.bulk-remote"],
  ])("flags %s as %s", (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it.each([
    "fdisk -l",
    "fdisk -l /dev/sda",
    "parted -l",
    "sfdisk --list",
    "dd if=/dev/sda of=disk.img",
    "dd if=/dev/zero of=file bs=1M count=1",
    "dd if=x of=/dev/null",
    "cp /dev/sda backup.img",
    "cat /dev/sda",
    "chmod 644 file",
    "chmod -R 755 ./dist",
    "chmod -R u+w build",
    "chown -R me ./node_modules",
    "chmod 755 /usr/local/bin/tool",
    "kill -9 1234",
    "kill -1",
    "kill -HUP 4321",
    "kill %1",
    "pkill node",
    "pkill -f vite",
    "killall node",
    "shutdown -c",
    "systemctl status nginx",
    "systemctl restart nginx",
    "init",
    "kubectl get pods",
    "kubectl apply -f x.yaml",
    "kubectl delete pod x --dry-run=client",
    "terraform plan",
    "terraform apply",
    "crontab -l",
    "crontab -e",
    "aws s3 ls",
    "aws s3 rm s3://bucket/one-key",
    "docker ps",
    "docker run --rm x",
    "echo mkfs /dev/sda",
  ])("raises nothing for %s", (text) => {
    expect(codes(text)).toEqual([]);
  });

  it("marks bulk remote deletion as ask and every other destroyer as deny", () => {
    expect(classifyDestroyers(invocationOf(cmd("docker system prune -a"))!, ctx)[0]!.severity).toBe("ask");
    expect(classifyDestroyers(invocationOf(cmd("mkfs.ext4 /dev/sda"))!, ctx)[0]!.severity).toBe("deny");
  });
});

describe("isBlockDevice", () => {
  it.each([
    "/dev/sda",
    "/dev/sdb1",
    "/dev/nvme0n1",
    "/dev/nvme0n1p1",
    "/dev/disk2",
    "/dev/rdisk2",
    "/dev/mmcblk0p1",
    "/dev/xvda",
    "/dev/vda",
    "/dev/hda",
    "/dev/mapper/vg-root",
    "/dev/dm-0",
    "/dev/md0",
    "/dev/disk/by-id/x",
  ])("recognises %s", (path) => expect(isBlockDevice(path)).toBe(true));
  it.each(["/dev/null", "/dev/zero", "/dev/tty", "/dev/stdout", "/dev/urandom", "/dev/shm/x", "./sda"])(
    "does not flag %s",
    (path) => expect(isBlockDevice(path)).toBe(false),
  );
});

describe("detectForkBomb", () => {
  it.each([
    ":(){ :|:& };:",
    ":(){ :|: & };:",
    ": ( ) { : | : & } ; :",
    "bomb() { bomb | bomb & }; bomb",
    "function f { f | f & }; f",
    "function f() { f|f& }\nf",
    "x(){ x & x & }; x",
    "bash -c ':(){ :|:& };:'",
    'sh -c ":(){ :|:& };:"',
    "bash <<'EOF'\n:(){ :|:& };:\nEOF",
    "eval ':(){ :|:& };:'",
    "/bin/bash -e -c ':(){ :|:& };:'",
    "bash -c \"bash -c ':(){ :|:& };:'\"",
    "echo ok; sh -c $':(){ :|:& };:'",
    "(eval ':(){ :|:& };:')",
    "/usr/bin/eval ':(){ :|:& };:'",
    "'x'/bash -c ':(){ :|:& };:'",
    "bash -x -e -c ':(){ :|:& };:'",
    "bash<<EOF\n:(){ :|:& };:\nEOF",
    "f() { f & echo f; }",
    "f(){ f|f&& true; }",
    "echo \\ #; :(){ :|:& };:",
    "echo x#y; :(){ :|:& };:",
  ])("finds the fork bomb in %j", (script) => {
    expect(detectForkBomb(script)).toMatchObject({ code: "destroy.fork-bomb", severity: "deny" });
  });

  it.each([
    "f() { echo hi; }; f",
    "build() { make | tee log; }; build",
    "a() { b | b & }; a",
    "sleep 1 & wait",
    "cat <<'EOF'\n:(){ :|:& };:\nEOF",
    "cat <<-X\n\t:(){ :|:& };:\n\tX\necho done",
    "cat <<< x; echo ok",
    "echo ':(){ :|:& };:'",
    'echo ":(){ :|:& };:"',
    "echo $':(){ :|:& };:'",
    "git commit -m 'bomb(){ bomb|bomb& }; bomb'",
    "grep -n 'f() { f | f & }' notes.md",
    "echo \\:\\(\\)\\{ \\:\\|\\:\\& \\}\\;\\:",
    "# :(){ :|:& };:",
    "echo hi # :(){ :|:& };:\necho done",
    "xfunction f { f|f& }",
    "f(){ f||f& }",
    "f() { f & echo g; }",
    "bash -x 'f' ':(){ :|:& };:'",
  ])("does not flag %j", (script) => {
    expect(detectForkBomb(script)).toBeUndefined();
  });
});

describe("detectForkBomb on long input", () => {
  const shapes: Record<string, (n: number) => string> = {
    "one long word": (n) => `${"a".repeat(n)} & f() { x; }`,
    "many quoted words": (n) => `bash -c ${"'x' ".repeat(n / 4)}& f(){ x; }`,
    "many options": (n) => `bash ${"-x ".repeat(n / 3)}-c 'x & y'`,
    "definitions without a closing brace": (n) => `${"a(){ ".repeat(n / 5)}&`,
    "many heredocs on one line": (n) => `cat ${"<<a ".repeat(n / 4)}& f(){ x; }`,
    "a long name in the background": (n) =>
      `${"a".repeat(n / 2)}(){ ${"a".repeat(n / 2)} & ${"a".repeat(n / 2 - 1)} }`,
  };

  // The quadratic scan took seconds for 32 KB, so minutes for 256 KB; a linear one needs milliseconds. The
  // test's timeout is the guard (generous for a busy machine), not a timing assertion.
  it.each(Object.keys(shapes))(
    "reads 256 KB of %s in linear time",
    (shape) => {
      const make = shapes[shape]!;
      expect(detectForkBomb(make(256 * 1024))).toBeUndefined();
    },
    60_000,
  );

  it("finds a fork bomb at the end of a long script", () => {
    expect(detectForkBomb(`${"echo 'a b'; ".repeat(20_000)}:(){ :|:& };:`)).toMatchObject({
      code: "destroy.fork-bomb",
    });
  });
});
