// The unzip worker's entry point (loaded by unzipInWorker as a module worker).
import { handleUnzipRequest, type UnzipRequest } from "./zip-worker";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<UnzipRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

scope.onmessage = (event) => handleUnzipRequest(event.data, (message, transfer) => scope.postMessage(message, transfer));
