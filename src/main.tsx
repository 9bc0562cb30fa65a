// Composition root: builds the runtime, storage, providers and agent, and mounts the UI.
import { createRoot } from "react-dom/client";

createRoot(document.getElementById("root")!).render(<main>webcode</main>);
