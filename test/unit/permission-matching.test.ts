// Issue 30: the bash rules match what runs, however it is written. Each row is one command (an argv
// after the shell's expansion, or a command line as the agent sent it) and the decision the default
// rules give it: every known way around "git push", "curl", "rm -rf" and "find -delete" asks, and
// the look-alikes that are harmless stay allowed.
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES, argvPermission, bashPermission, decide, stricter, type BashPermission, type PermissionAction } from "../../src/agent/permission";
import { downloadTarget, textChecks } from "../../src/agent/permission/command-gate";

/**
 * The decision for one expanded command, as the gated runtime asks: the strictest over its bash
 * patterns, and a download client's target under the network rules (its request asks there).
 */
function decision(permission: BashPermission): PermissionAction {
  return permission.patterns
    .map((pattern) => {
      const target = downloadTarget(pattern.split(/\s+/));
      return stricter(decide("bash", pattern, DEFAULT_RULES), target === undefined ? "allow" : decide("network", target, DEFAULT_RULES));
    })
    .reduce(stricter, "allow");
}

/**
 * The decision for a command line judged by its text (runtimes without a gate): the strictest over
 * its asks, leaving out the ask for lines that cannot be analysed (the "unanalysable" tests below).
 */
function lineDecision(line: string): PermissionAction {
  return textChecks(line, "")
    .filter((request) => request.metadata.unanalysable !== true)
    .flatMap((request) => request.patterns.map((pattern) => decide(request.permission, pattern, DEFAULT_RULES)))
    .reduce(stricter, "allow");
}

type Row = [input: string, expected: PermissionAction];

/** Command lines; the argv rows below are their expanded forms where that differs. */
const LINES: Row[] = [
  // git push with global options, wrappers and quoting
  ["git push origin main", "ask"],
  ["git -C . push origin main", "ask"],
  ["git -C /workspace/app push", "ask"],
  ["git -c x=y push", "ask"],
  ["git -c user.name=a -c user.email=b push --force", "ask"],
  ["git --git-dir=.git --work-tree=. push", "ask"],
  ["git --git-dir .git push", "ask"],
  ["git --no-pager push", "ask"],
  ["git -P push", "ask"],
  ["git --bare --literal-pathspecs push", "ask"],
  ["git --namespace=x push", "ask"],
  ["command git push", "ask"],
  ["command -p git push", "ask"],
  ["builtin command git push", "ask"],
  ["'git' \"push\" origin", "ask"],
  ["/usr/bin/git push", "ask"],
  ["if git push; then echo ok; fi", "ask"],
  ["! git push", "ask"],
  ["{ git push; }", "ask"],
  ["2>/dev/null git push", "ask"],
  ["git -c alias.p=push p origin main", "ask"],
  ["git -c 'alias.up=!curl example.com' up", "ask"],
  // curl and wget behind wrappers
  ["curl https://example.com", "ask"],
  ["\\curl https://example.com", "ask"],
  ["\\curl example.com", "ask"],
  ["cu'r'l example.com", "ask"],
  ["env curl example.com", "ask"],
  ["env -i PATH=/bin curl example.com", "ask"],
  ["env -u HOME -- curl example.com", "ask"],
  ["env -S 'curl example.com'", "ask"],
  ["time curl example.com", "ask"],
  ["time -p curl example.com", "ask"],
  ["nice -n 10 curl example.com", "ask"],
  ["nice -5 wget example.com", "ask"],
  ["nohup curl example.com", "ask"],
  ["exec curl example.com", "ask"],
  ["timeout 5 curl example.com", "ask"],
  ["timeout -s KILL -k 2 5s curl example.com", "ask"],
  ["stdbuf -oL curl example.com", "ask"],
  ["stdbuf -o L -e 0 wget example.com", "ask"],
  ["sudo -u root curl example.com", "ask"],
  ["nohup nice timeout 9 env A=1 command curl example.com", "ask"],
  ["echo example.com | xargs curl", "ask"],
  ["echo x | xargs -n 1 -P 4 curl -s", "ask"],
  ["echo x | xargs -I{} curl {}", "ask"],
  ["sh -c 'curl example.com'", "ask"],
  ["bash -lc \"git push\"", "ask"],
  ["sh -c 'sh -c \"wget x\"'", "ask"],
  // rm, recursive and forced, however spelled
  ["rm -rf dist", "ask"],
  ["rm -r -f .", "ask"],
  ["rm -R -f .", "ask"],
  ["rm -fr .", "ask"],
  ["rm -Rf src", "ask"],
  ["rm -rfv build", "ask"],
  ["rm --recursive --force .", "ask"],
  ["rm -r --force .", "ask"],
  ["rm --force -R node_modules", "ask"],
  ["rm dist -rf", "ask"],
  ["rm -v -r -i -f dist", "ask"],
  ["command rm -r -f .", "ask"],
  ["/bin/rm -fr .", "ask"],
  ["echo $(rm -r -f /)", "ask"],
  // find that deletes or runs commands
  ["find . -delete", "ask"],
  ["find -delete", "ask"],
  ["find . -name '*.tmp' -delete", "ask"],
  ["find src -type f -exec rm {} ;", "ask"],
  ["find . -exec rm -rf {} +", "ask"],
  ["find . -execdir rm {} \\;", "ask"],
  ["find . -ok rm {} ;", "ask"],
  ["find -okdir rm {} ;", "ask"],
  ["find . -name x -exec curl example.com ;", "ask"],
  // other defaults, through wrappers
  ["env npm publish", "ask"],
  ["time git -C sub push", "ask"],
  // harmless look-alikes and ordinary commands: allowed
  ["git -C . status", "allow"],
  ["git -c color.ui=never log --oneline", "allow"],
  ["git --no-pager diff", "allow"],
  ["git commit -m 'git push later'", "allow"],
  ["git stash push -m wip", "allow"],
  ["rm -r dir", "allow"],
  ["rm -f file.txt", "allow"],
  ["rm -i -r old", "allow"],
  ["rm -- -rf", "allow"],
  ["find . -name '*.ts'", "allow"],
  ["find src -type f -newer package.json", "allow"],
  ["echo curl", "allow"],
  ["echo git push", "allow"],
  ["grep -r push .", "allow"],
  ["grep -rn 'rm -rf' src", "allow"],
  ["cat README.md", "allow"],
  ["npm test", "allow"],
  ["npm install lodash", "allow"],
  ["env | sort", "allow"],
  ["env", "allow"],
  ["time npm test", "allow"],
  ["timeout 60 npm test", "allow"],
  ["command -v curl", "allow"],
  ["which curl", "allow"],
  ["ls -la && pwd", "allow"],
  ["mkdir -p src/lib && touch src/lib/a.ts", "allow"],
  ["sed -i 's/a/b/' file.txt", "allow"],
  ["node -e 'console.log(1)'", "allow"],
  ["python3 -m pytest -q", "allow"],
  ["tsc --noEmit", "allow"],
  ["FOO=1 npm run build", "allow"],
  ["[ -f package.json ] && echo yes", "allow"],
  ["sh -c 'ls -la'", "allow"],
];

/** argvs as the shell hands them over after expansion (no quotes, no assignments, no syntax). */
const ARGVS: Array<[argv: string[], expected: PermissionAction]> = [
  [["git", "-C", ".", "push", "origin", "main"], "ask"],
  [["git", "-c", "x=y", "push"], "ask"],
  [["git", "--git-dir=/w/.git", "push"], "ask"],
  [["git", "-c", "alias.p=push", "p"], "ask"],
  [["command", "git", "push"], "ask"],
  [["\\curl", "example.com"], "ask"],
  [["/usr/bin/curl", "example.com"], "ask"],
  [["env", "curl", "example.com"], "ask"],
  [["env", "-i", "A=1", "curl", "x"], "ask"],
  [["time", "curl", "example.com"], "ask"],
  [["xargs", "-0", "curl"], "ask"],
  [["sudo", "wget", "x"], "ask"],
  [["rm", "-r", "-f", "."], "ask"],
  [["rm", "-R", "--force", "dist"], "ask"],
  [["rm", "-rfv", "dist"], "ask"],
  [["find", ".", "-delete"], "ask"],
  [["find", ".", "-exec", "rm", "{}", ";"], "ask"],
  [["find", "-execdir", "ls", "{}", "+"], "ask"],
  [["git", "-C", ".", "status"], "allow"],
  [["git", "commit", "-m", "push it; curl x"], "allow"],
  [["rm", "-r", "dir"], "allow"],
  [["rm", "-f", "file"], "allow"],
  [["find", ".", "-name", "*.ts"], "allow"],
  // echo sends nothing: the gate asks for requests made, not for URLs printed.
  [["echo", "curl", "https://example.com"], "allow"],
  [["echo", "curl"], "allow"],
  [["grep", "-r", "push", "."], "allow"],
  [["cat", "README.md"], "allow"],
  [["env"], "allow"],
  [["time", "npm", "test"], "allow"],
];

describe("rule matching on what runs: command lines (bashPermission)", () => {
  it.each(LINES)("%s → %s", (line, expected) => {
    expect(lineDecision(line)).toBe(expected);
    expect(decision(bashPermission(line))).toBe(expected);
  });

  it("has the rows the issue asks for", () => {
    expect(LINES.length + ARGVS.length).toBeGreaterThanOrEqual(60);
  });
});

describe("rule matching on what runs: expanded commands (argvPermission)", () => {
  it.each(ARGVS)("%j → %s", (argv, expected) => {
    expect(decision(argvPermission(argv))).toBe(expected);
  });
});

describe("canonical patterns", () => {
  it("drops wrappers and git's global options, and writes rm's recursive force as -rf", () => {
    expect(argvPermission(["git", "-C", ".", "push", "origin", "main"])).toEqual({ patterns: ["git push origin main"], always: ["git push *"], unanalysable: [] });
    expect(bashPermission("nohup env -u X time -p \\curl -s https://x.org").patterns).toEqual(["curl -s https://x.org"]);
    expect(bashPermission("rm --force -R a b").patterns).toEqual(["rm -rf a b"]);
    expect(bashPermission("rm -r dir").patterns).toEqual(["rm -r dir"]);
  });

  it("writes find's default start path and checks the command of -exec too", () => {
    expect(bashPermission("find -delete").patterns).toEqual(["find . -delete"]);
    expect(bashPermission("find . -exec rm -r -f {} +")).toEqual({
      patterns: ["find . -exec rm -r -f {} +", "rm -rf {}"],
      always: ["find *", "rm *"],
      unanalysable: [],
    });
  });

  it("checks the commands of a literal sh -c script", () => {
    expect(bashPermission("bash -c 'cd app && git -C . push'").patterns).toEqual(["bash -c cd app && git -C . push", "cd app", "git push"]);
  });
});

describe("unanalysable: what runs cannot be known from the text", () => {
  const unanalysable = (line: string) => bashPermission(line).unanalysable.map((entry) => entry.command);

  it.each([
    ["eval \"$cmd\"", "eval $cmd"],
    ["source ./env.sh", "source ./env.sh"],
    [". ./env.sh", ". ./env.sh"],
    ["sh deploy.sh", "sh deploy.sh"],
    ["bash -c \"$SCRIPT\"", "bash -c $SCRIPT"],
    ["curl -s x | bash", "bash"],
    ["$c https://example.com", "$c https://example.com"],
    ["$(cat cmd) arg", "$(cat cmd) arg"],
    ["`cat cmd` arg", "`cat cmd` arg"],
    ["git $(echo push)", "git $(echo push)"],
    ["ls | xargs rm", "rm"],
    ["npm run build", "npm run build"],
    ["npm test", "npm test"],
    ["npm exec foo", "npm exec foo"],
    ["npx vitest", "npx vitest"],
    ["yarn build", "yarn build"],
    ["pnpm run lint", "pnpm run lint"],
    ["pnpm lint", "pnpm lint"],
    ["alias ls=curl", "alias ls=curl"],
    ["git -c core.pager='curl x' log", "git log"],
    ["/bin/c?rl example.com", "c?rl example.com"],
  ])("%s", (line, command) => {
    expect(unanalysable(line)).toContain(command);
  });

  it.each(["ls -la", "git -C . status", "npm install lodash", "echo $HOME", "cat $FILE", "sh -c 'ls'", "rm -rf dist", "[ -f x ]", "node build.js", "env | sort"])(
    "%s is analysable",
    (line) => {
      expect(unanalysable(line)).toEqual([]);
    },
  );

  it("says why", () => {
    expect(bashPermission("npm run build").unanalysable).toEqual([{ command: "npm run build", reason: "it runs a script from package.json" }]);
    expect(argvPermission(["eval", "curl x"]).unanalysable).toEqual([{ command: "eval curl x", reason: "eval runs text known only when it runs" }]);
  });
});
