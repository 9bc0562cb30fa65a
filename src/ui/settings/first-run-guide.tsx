// Shown in place of the chat until a model provider is configured: what to do, in three steps.
export function FirstRunGuide({ onOpenSettings }: { onOpenSettings(): void }) {
  return (
    <section className="first-run" aria-labelledby="first-run-title">
      <h2 id="first-run-title">Connect a model to start</h2>
      <p>webcode calls the model provider straight from this page with your own key. Nothing goes through a server of ours.</p>
      <ol>
        <li>Open Settings and add a provider: OpenAI, Anthropic, Google, OpenRouter, or a local server (Ollama, LM Studio, any OpenAI-compatible URL).</li>
        <li>Paste your API key (local servers need none) and press "Test connection".</li>
        <li>Pick a model and save. Then tell the agent what to build.</li>
      </ol>
      <p className="first-run-note">Keys are kept only in this browser's storage for this site, never in exports or share links.</p>
      <button type="button" className="button button-primary" onClick={onOpenSettings}>
        Open Settings
      </button>
    </section>
  );
}
