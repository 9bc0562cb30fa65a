// The page's program host for node: the isolated execution host with the node runtime's worker
// bundle, loaded (and the extra JavaScript fetched) only when the first program runs.
import { SandboxHost, iframeEndpointFactory } from "../sandbox";
import nodeWorkerUrl from "./worker?worker&url";

let shared: SandboxHost | undefined;

/** The page's one host: every workspace's shell runs its programs there, one at a time per run. */
export function pageNodeHost(): SandboxHost {
  shared ??= createPageNodeHost();
  return shared;
}

export function createPageNodeHost(): SandboxHost {
  return new SandboxHost(
    iframeEndpointFactory({
      sandboxUrl: new URL(`${import.meta.env.BASE_URL}sandbox.html`, location.href).href,
      workerSource: async () => {
        const response = await fetch(nodeWorkerUrl);
        if (!response.ok) throw new Error(`${nodeWorkerUrl} answered ${response.status}`);
        return response.text();
      },
    }),
  );
}
