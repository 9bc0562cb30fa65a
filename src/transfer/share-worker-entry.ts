// The share-decode worker's entry point (loaded by decodeShareInWorker as a module worker).
import { handleShareDecodeRequest, type ShareDecodeRequest } from "./share-worker";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ShareDecodeRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

scope.onmessage = (event) => handleShareDecodeRequest(event.data, (message, transfer) => scope.postMessage(message, transfer));
