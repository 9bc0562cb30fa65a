// pip in a real browser: the page asks a fake package index on 127.0.0.1 (named in pip.conf) in
// PEP 691's JSON form, progress shows in the terminal, python3 imports what was installed,
// `python3 -m pip` lists it, a native-only package is refused with a clear message, and uninstall
// removes it again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInTerminal, terminalText, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { startFakeIndex, type FakeIndex } from "../support/fake-index";

const browser = useBrowser();
let index: FakeIndex;

beforeAll(async () => {
  index = await startFakeIndex();
});
afterAll(async () => {
  await index.close();
});

const unwrapped = async (page: Parameters<typeof terminalText>[0]) => (await terminalText(page)).replace(/\n/g, "");

describe("pip in the browser runtime", () => {
  it("installs from the index in pip.conf, python3 imports it, python3 -m pip lists it, native code is refused, uninstall removes it", async () => {
    const { page } = await browser.open();
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, `printf '[global]\\nindex-url = ${index.url}\\n' > pip.conf`);
    await runInTerminal(page, "pip install 'app-pkg[fast]'; echo pip-exit=$?");
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^pip-exit=0$/m);
    const text = await unwrapped(page);
    expect(text).toContain("Collecting helper>=2  Downloaded helper-2.1.0-py3-none-any.whl");
    expect(text).toContain("Successfully installed app-pkg-1.0.0 helper-2.1.0 speedups-1.4 tiny-dep-0.2");
    expect(index.requests.find((r) => r.path === "/simple/app-pkg/")?.accept).toContain("application/vnd.pypi.simple.v1+json");

    await runInTerminal(page, `clear; python3 -c "import app_pkg, speedups; print('value', app_pkg.VALUE, speedups.FAST)"`);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/^value <APP> True$/m);

    await runInTerminal(page, "clear; python3 -m pip list");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^tiny-dep +0\.2$/m);

    await runInTerminal(page, "clear; pip install native-pkg; echo native-exit=$?");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^native-exit=1$/m);
    expect(await unwrapped(page)).toContain("it contains native code, which the browser runtime's Python cannot load");

    await runInTerminal(page, "clear; pip uninstall -y app-pkg && python3 -c 'import app_pkg'; echo import-exit=$?");
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/^import-exit=1$/m);
    const after = await unwrapped(page);
    expect(after).toContain("Successfully uninstalled app-pkg-1.0.0");
    expect(after).toContain("ModuleNotFoundError: No module named 'app_pkg'");
  });
});
