import { describe, expect, it } from "vitest";
import { cmd, ctx, wrapped } from "../../test/safety/command.js";
import { invocationOf } from "./argv.js";
import { classifyTools, sedCall } from "./tools.js";
import type { ExtractedCommand } from "../shell/types.js";

function codes(input: string | ExtractedCommand): string[] {
  return classifyTools(invocationOf(typeof input === "string" ? cmd(input) : input)!).map((f) => f.code);
}

describe("option-level rules for read-only tools", () => {
  it.each([
    "find . -name %*.ts",
    "find . -type f -newer x",
    "find / -maxdepth 1 -print",
    "find . -name %-delete",
    "fd pattern",
    "fd -e ts",
    "fd -H -I name",
    "sed -n 1,5p f",
    "sed -n %$p f",
    "sed s/a/b/ f",
    "sed -e s/a/b/ -e s/c/d/ f",
    "sed -E s/(a)/\\1/g f",
    "sed --expression=p f",
    "sed -n /x/p f",
    "sed --sandbox e f",
    "awk %{print·$1} f",
    "awk -F, %{print·$2} f",
    "awk -v x=1 %{print·x} f",
    "gawk %BEGIN{print·1}",
    "rg foo",
    "rg -n -i foo src",
    "rg --pretty foo",
    "rg -e -z foo",
    "rg --no-pre foo",
    "sort -u f",
    "sort -k2 -t, f",
    "tar -czf out.tgz src",
    "tar xzf a.tgz",
    "tar --checkpoint=100 -cf a.tar src",
    "zip -r a.zip src",
    "zip -T a.zip src",
    "rsync -av src/ dst/",
    "ssh host ls",
    "ssh -o StrictHostKeyChecking=no host",
    "scp -o ConnectTimeout=5 a host:b",
    "env FOO=1 make",
    "vim file.txt",
    "vim +42 file.txt",
    "man ls",
    "xargs",
    "less file",
    "jq .a f.json",
    "echo find . -exec rm {} ;",
  ])("raises nothing for %s", (text) => {
    expect(codes(text)).toEqual([]);
  });

  it.each([
    ["find . -exec rm {} ;", "tool.exec-option"],
    ["find . -name x -execdir sh -c x ;", "tool.exec-option"],
    ["find . -ok rm {} ;", "tool.exec-option"],
    ["find . -okdir rm {} ;", "tool.exec-option"],
    ["find / -delete", "tool.find-delete"],
    ["find . -name *.o -delete", "tool.find-delete"],
    ["find . -name *.ts", "tool.find-dynamic"],
    ["find . -exe$X rm {} ;", "tool.find-dynamic"],
    ["find . -ex{e,}c rm {} ;", "tool.find-dynamic"],
    ["/usr/bin/find . -delete", "tool.find-delete"],
    ["busybox find . -exec rm {} ;", "tool.exec-option"],
    ["fd -x rm", "tool.exec-option"],
    ["fd --exec rm", "tool.exec-option"],
    ["fd -X rm", "tool.exec-option"],
    ["fd --exec-batch=rm", "tool.exec-option"],
    ["fd -Hx rm", "tool.exec-option"],
    ["sed -i s/a/b/ f", "tool.in-place-edit"],
    ["sed -i.bak s/a/b/ f", "tool.in-place-edit"],
    ["sed -Ei s/a/b/ f", "tool.in-place-edit"],
    ["sed -ni p f", "tool.in-place-edit"],
    ["sed --in-place s/a/b/ f", "tool.in-place-edit"],
    ["sed --in-place=.orig s/a/b/ f", "tool.in-place-edit"],
    ["sed --in s/a/b/ f", "tool.in-place-edit"],
    ["sed s/a/b/ f -i", "tool.in-place-edit"],
    ["sed -I s/a/b/ f", "tool.in-place-edit"],
    ["gsed -i s/a/b/ f", "tool.in-place-edit"],
    ["sed e f", "tool.sed-exec"],
    ["sed 1e·id f", "tool.sed-exec"],
    ["sed s/x/id/e f", "tool.sed-exec"],
    ["sed -n -e p -e s/a/b/e f", "tool.sed-exec"],
    ["sed -f script.sed f", "tool.sed-unparsed"],
    ["sed --file=s.sed f", "tool.sed-unparsed"],
    ["sed $SCRIPT f", "tool.sed-unparsed"],
    ["sed -e $S f", "tool.sed-unparsed"],
    ["sed k f", "tool.sed-unparsed"],
    ["sed", "tool.sed-unparsed"],
    ['awk %BEGIN{system("id")}', "tool.awk-exec"],
    ['gawk %{print|"sh"}', "tool.awk-exec"],
    ['mawk %{"date"|getline·d}', "tool.awk-exec"],
    ['nawk %BEGIN{system("x")}', "tool.awk-exec"],
    ['awk -e %BEGIN{system("x")}', "tool.awk-exec"],
    ['awk %{print>"out"}', "tool.awk-write"],
    ["awk -f prog.awk f", "tool.awk-unparsed"],
    ["awk --file=prog.awk f", "tool.awk-unparsed"],
    ["gawk -l filefuncs %{}", "tool.awk-unparsed"],
    ["awk $PROG f", "tool.awk-unparsed"],
    ["rg --pre ./x foo", "tool.exec-option"],
    ["rg --pre=./x foo", "tool.exec-option"],
    ["rg -z foo", "tool.exec-option"],
    ["rg -iz foo", "tool.exec-option"],
    ["rg --search-zip foo", "tool.exec-option"],
    ["rg --hostname-bin=./x foo", "tool.exec-option"],
    ["rg foo --pre ./x", "tool.exec-option"],
    ["sort --compress-program=gzip f", "tool.exec-option"],
    ["sort --compress-prog gzip f", "tool.exec-option"],
    ["tar --to-command=sh -xf a.tar", "tool.exec-option"],
    ["tar -I ./x -xf a.tar", "tool.exec-option"],
    ["tar --use-compress-program=./x -xf a.tar", "tool.exec-option"],
    ["tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=sh·x src", "tool.exec-option"],
    ["tar -F ./script -cf a.tar src", "tool.exec-option"],
    ["tar --rsh-command=./x -cf host:a.tar src", "tool.exec-option"],
    ["zip a.zip f -T -TT ./x", "tool.exec-option"],
    ["zip a.zip f --unzip-command ./x", "tool.exec-option"],
    ["rsync -e ./x src host:dst", "tool.exec-option"],
    ["rsync -avze ./x src host:dst", "tool.exec-option"],
    ["rsync --rsh=./x src host:dst", "tool.exec-option"],
    ["rsync --rsync-path=./x src host:dst", "tool.exec-option"],
    ["ssh -o ProxyCommand=./x host", "tool.exec-option"],
    ["ssh -oProxyCommand=./x host", "tool.exec-option"],
    ["ssh -o LocalCommand=x -o PermitLocalCommand=yes host", "tool.exec-option"],
    ["scp -o ProxyCommand=x a host:b", "tool.exec-option"],
    ["scp -S ./x a host:b", "tool.exec-option"],
    ["sftp -S ./x host", "tool.exec-option"],
    ["env -S sh·-c·x", "tool.exec-option"],
    ["env --split-string=x", "tool.exec-option"],
    ["vim -c %:!id file", "tool.exec-option"],
    ["nvim --cmd x file", "tool.exec-option"],
    ["vi +%:!id file", "tool.exec-option"],
    ["vim -S session.vim", "tool.exec-option"],
    ["emacs --eval (x)", "tool.exec-option"],
    ["man -P ./x ls", "tool.exec-option"],
    ["man --pager=./x ls", "tool.exec-option"],
    ["npm test --script-shell=/tmp/evil", "tool.exec-option"],
    ["npm config set script-shell /tmp/evil", "tool.exec-option"],
    ["pnpm run build --script-shell /tmp/x", "tool.exec-option"],
  ])("flags %s as %s", (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it.each(["xargs rm", "xargs -n1 sh -c x", "xargs -I {} cp {} dst"])(
    "flags %s when the analyser could not unwrap xargs",
    (text) => {
      const command = cmd(text);
      expect(codes({ ...command, wrappers: [], effective: command.argv })).toContain("tool.xargs");
    },
  );

  it("sees env -S in the original argv when the analyser unwrapped env", () => {
    expect(codes(wrapped("env -S a·b make", ["env"], 2))).toContain("tool.exec-option");
  });

  it("lists the files sed -i edits, not the script", () => {
    const invocation = invocationOf(cmd("sed -i s/a/b/ one two"))!;
    expect(sedCall(invocation)!.files.map((i) => invocation.args[i])).toEqual(["one", "two"]);
    const withE = sedCall(invocationOf(cmd("sed -i -e s/a/b/ one"))!)!;
    expect(withE.files).toEqual([3]);
  });
});

describe("unfiltered removal with find", () => {
  function removal(text: string): string[] {
    return classifyTools(invocationOf(cmd(text))!, ctx).map((f) => f.code);
  }

  it.each([
    ["find / -delete", "rm.recursive-root"],
    ["find ~ -delete", "rm.recursive-home"],
    ["find $HOME -depth -delete", "rm.recursive-home"],
    ["find /etc -delete", "rm.recursive-system"],
    ["find / -exec rm -rf {} +", "rm.recursive-root"],
    ["find ~ -mindepth 1 -execdir /bin/rm {} ;", "rm.recursive-home"],
  ])("denies %s as %s", (text, code) => {
    expect(removal(text)).toContain(code);
  });

  it.each([
    "find / -name core -delete",
    "find ~ -type f -name %*.tmp -delete",
    "find . -name node_modules -prune -exec rm -rf {} +",
    "find build -delete",
    "find / -exec ls {} ;",
    "find . -empty -delete",
    "find /tmp/cache -mtime +7 -delete",
    "find . -delete",
  ])("leaves %s to ask", (text) => {
    expect(removal(text).some((c) => c.startsWith("rm."))).toBe(false);
  });
});
