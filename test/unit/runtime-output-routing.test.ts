// The output routing (output-routing.ts) only changes when and in which order output arrives, never
// what a script does: each script here gives the same stdout, stderr and exit code with and without
// it (compared per stream, since without it the two streams are not interleaved).
import { Bash, InMemoryFs, MountableFs } from "just-bash";
import { describe, expect, it } from "vitest";
import { OutputSinkFs, outputRoutingPlugin } from "../../src/runtime/browser/output-routing";

const scripts = [
  "cat <<EOF\nhello $HOME\nEOF\necho done",
  "cat > /tmp/h <<'EOF'\nraw $x\nEOF\ncat /tmp/h",
  "(exit 3); echo $?",
  "false | true; echo ${PIPESTATUS[@]}",
  "set -e; echo a; false; echo b",
  "set -o pipefail; false | true; echo $?",
  "x=5; (( x > 3 )) && echo big; [[ $x == 5 ]] && echo five",
  "case abc in a*) echo A;; *) echo other;; esac",
  "for f in 1 2 3; do echo $f; done | sort -r",
  "echo out; echo err >&2; } 2>&1", // a syntax error: nothing of the line runs
  "{ echo a; echo b >&2; } 2>/dev/null; echo c",
  "exec 3>&1; echo x >&3",
  "echo x >&3",
  "f() { local v=1; echo $v; return 4; }; f; echo $?",
  "while read -r a b; do echo \"$b $a\"; done <<< 'one two'",
  "echo $(echo sub; echo suberr >&2) end",
  "printf '%s\\n' a b c | while read l; do echo L$l; done",
  "eval 'echo ev; echo everr >&2'",
  "source /dev/null; echo sourced",
  "alias ll='echo aliased'; ll",
  "shopt -s expand_aliases; alias ll='echo aliased'\nll",
  "i=0; until [ $i -ge 3 ]; do echo $i; i=$((i+1)); done",
  "echo a &> /tmp/both; cat /tmp/both",
  "echo a 1>&2 2>/dev/null",
  "ls /nonexistent 2>&1 | wc -l",
  "cd /tmp; echo $PWD; cd -",
  "trap 'echo trapped' EXIT; echo body",
  "set -x; echo traced",
  "echo é; printf '\\xff\\n' | od -c | head -1",
  "readonly r=1; r=2; echo $r",
  "exit 7",
  "echo before; exit 2; echo after",
  "break",
  "time echo timed",
  "! false; echo $?",
  "echo a |& cat",
  "declare -A m; m[k]=v; echo ${m[k]}",
  "yes | head -3",
  "seq 3 | xargs -I{} echo n{}",
  "echo one > /tmp/o; echo two >> /tmp/o; cat < /tmp/o",
];

async function run(script: string, plugin: boolean) {
  const fs = new MountableFs({ base: new InMemoryFs() });
  let out = "", err = "";
  fs.mount("/dev/webcode", new OutputSinkFs((c) => (c.stream === "stdout" ? (out += c.text) : (err += c.text))));
  const bash = new Bash({ fs, defenseInDepth: false });
  if (plugin) bash.registerTransformPlugin(outputRoutingPlugin);
  const r = await bash.exec(script);
  // `time` reports how long its command took, which differs between two runs on a loaded machine.
  const stderr = (err + r.stderr).replace(/\b\d+m\d+\.\d+s\b/g, "<elapsed>");
  return { stdout: out + r.stdout, stderr, exitCode: r.exitCode };
}

describe("output routing", () => {
  it.each(scripts)("changes nothing but the order: %j", async (script) => {
    const plain = await run(script, false);
    const routed = await run(script, true);
    expect(routed).toEqual(plain);
    if (script.startsWith("time ")) expect(routed.stderr).toMatch(/real\s+<elapsed>/);
  });

  it("routes each command's output as it finishes, in order", async () => {
    const chunks: string[] = [];
    const fs = new MountableFs({ base: new InMemoryFs() });
    fs.mount("/dev/webcode", new OutputSinkFs((chunk) => chunks.push(`${chunk.stream}:${chunk.text}`)));
    const bash = new Bash({ fs, defenseInDepth: false });
    bash.registerTransformPlugin(outputRoutingPlugin);
    await bash.exec("for i in 1 2; do echo o$i; echo e$i >&2; done; { echo g; echo h >&2; } 2>&1; echo p | cat");
    expect(chunks).toEqual(["stdout:o1\n", "stderr:e1\n", "stdout:o2\n", "stderr:e2\n", "stdout:g\n", "stdout:h\n", "stdout:p\n"]);
  });
});
