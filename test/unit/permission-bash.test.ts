// Spec §5: bash commands become patterns (one per simple command) and "always" grants by arity.
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES, bashPermission, evaluate, splitCommands, shellWords, commandPrefix } from "../../src/agent/permission";

describe("bashPermission", () => {
  it("uses the leading words by arity plus ' *' as the always pattern", () => {
    expect(bashPermission("git status --short")).toEqual({ patterns: ["git status --short"], always: ["git status *"], unanalysable: [] });
    expect(bashPermission("npm install lodash").always).toEqual(["npm install *"]);
    expect(bashPermission("npm run build -- --watch").always).toEqual(["npm run build *"]);
    expect(bashPermission("pnpm run test").always).toEqual(["pnpm run test *"]);
    expect(bashPermission("yarn add react").always).toEqual(["yarn add *"]);
    expect(bashPermission("docker compose up -d").always).toEqual(["docker compose up *"]);
    expect(bashPermission("docker ps -a").always).toEqual(["docker ps *"]);
    expect(bashPermission("cargo build --release").always).toEqual(["cargo build *"]);
    expect(bashPermission("ls -la src").always).toEqual(["ls *"]);
    expect(bashPermission("cat a.txt").always).toEqual(["cat *"]);
  });

  it("covers the browser runtime's git and python commands (issue 15)", () => {
    expect(bashPermission("git commit -m 'Fix the parser'").always).toEqual(["git commit *"]);
    expect(bashPermission("git stash pop").always).toEqual(["git stash pop *"]);
    expect(bashPermission("git push origin main").always).toEqual(["git push *"]);
    expect(bashPermission("pip install requests==2.32.0").always).toEqual(["pip install *"]);
    expect(bashPermission("pip3 install -r requirements.txt").always).toEqual(["pip3 install *"]);
    // A module run is granted per module: allowing tests does not allow a server.
    expect(bashPermission("python3 -m pytest -q").always).toEqual(["python3 -m pytest *"]);
    expect(bashPermission("python3 -m pip install -r requirements.txt").always).toEqual(["python3 -m pip install *"]);
    expect(bashPermission("python -m pip list").always).toEqual(["python -m pip list *"]);
    expect(bashPermission("python3 -m http.server 8000").always).toEqual(["python3 -m http.server *"]);
    expect(bashPermission("python3 script.py").always).toEqual(["python3 *"]);
  });

  it("counts one word for commands not in the table", () => {
    expect(bashPermission("frobnicate --all now").always).toEqual(["frobnicate *"]);
  });

  it("keeps commands shorter than their arity whole", () => {
    expect(bashPermission("git").always).toEqual(["git *"]);
    expect(bashPermission("npm run").always).toEqual(["npm run *"]);
  });

  it("splits &&, ||, ;, |, & and newlines into several patterns", () => {
    expect(bashPermission("npm install && npm test; git status | head -5 || echo failed & ls\ncat x")).toEqual({
      patterns: ["npm install", "npm test", "git status", "head -5", "echo failed", "ls", "cat x"],
      always: ["npm install *", "npm test *", "git status *", "head *", "echo *", "ls *", "cat *"],
      unanalysable: [{ command: "npm test", reason: "it runs a script from package.json" }],
    });
  });

  it("does not split inside quotes or on redirections (patterns are the words, quotes removed)", () => {
    expect(bashPermission(`echo "a && b; c | d" 'e;f'`).patterns).toEqual([`echo a && b; c | d e;f`]);
    expect(bashPermission("npm test 2>&1 | tail -3").patterns).toEqual(["npm test 2>&1", "tail -3"]);
    expect(bashPermission("npm test &> log.txt").patterns).toEqual(["npm test &> log.txt"]);
  });

  it("checks commands hidden in substitutions and subshells", () => {
    expect(bashPermission("echo $(rm -rf /)").patterns).toEqual(["rm -rf /", "echo $(rm -rf /)"]);
    expect(bashPermission("echo `git push`").patterns).toEqual(["git push", "echo `git push`"]);
    expect(bashPermission("(cd app && rm -rf dist)").patterns).toEqual(["cd app", "rm -rf dist"]);
    expect(bashPermission(`echo "$(git push --force)"`).patterns).toContain("git push --force");
  });

  it("so that a destructive command inside a chain still asks under the defaults", () => {
    for (const command of ["ls && rm -rf src", "echo $(git push)", "true; npm publish"]) {
      const actions = bashPermission(command).patterns.map((p) => evaluate("bash", p, [...DEFAULT_RULES]).action);
      expect(actions).toContain("ask");
    }
  });

  it("drops leading environment assignments from patterns", () => {
    expect(bashPermission("CI=1 NODE_ENV='prod x' npm test")).toMatchObject({ patterns: ["npm test"], always: ["npm test *"] });
  });

  it("ignores comments and empty commands", () => {
    expect(bashPermission("ls # list; rm -rf /\n;;").patterns).toEqual(["ls"]);
  });

  it("deduplicates repeated commands", () => {
    expect(bashPermission("ls; ls; ls -a")).toEqual({ patterns: ["ls", "ls -a"], always: ["ls *"], unanalysable: [] });
  });

  it("removes quotes from the words of the always pattern", () => {
    expect(bashPermission(`"git" 'commit' -m "x y"`).always).toEqual(["git commit *"]);
  });
});

describe("helpers", () => {
  it("splitCommands handles nested substitutions", () => {
    expect(splitCommands("echo $(cat $(ls))")).toEqual(["ls", "cat $(ls)", "echo $(cat $(ls))"]);
  });
  it("shellWords unquotes and unescapes", () => {
    expect(shellWords(`a "b c" 'd e' f\\ g "h\\"i"`)).toEqual(["a", "b c", "d e", "f g", 'h"i']);
    expect(shellWords(`a ""`)).toEqual(["a", ""]);
  });
  it("commandPrefix takes the longest listed prefix", () => {
    expect(commandPrefix(["npm", "run", "dev", "--", "x"])).toEqual(["npm", "run", "dev"]);
    expect(commandPrefix(["npm", "ci"])).toEqual(["npm", "ci"]);
    expect(commandPrefix([])).toEqual([]);
  });
});
