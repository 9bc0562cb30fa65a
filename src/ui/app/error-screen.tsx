// The full-page error shown when webcode cannot start at all (e.g. IndexedDB refused): what
// happened and what the user can do about it.
export interface FatalError {
  title: string;
  message: string;
  /** Steps the user can take, shown as a list. */
  steps?: string[];
}

export function ErrorScreen({ error }: { error: FatalError }) {
  return (
    <div className="error-screen" role="alert">
      <div className="error-card">
        <h1>{error.title}</h1>
        <p>{error.message}</p>
        {error.steps && error.steps.length > 0 && (
          <ul>
            {error.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ul>
        )}
        <button type="button" className="button button-primary" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    </div>
  );
}

/** The error screen's text for a database that cannot be opened. */
export function storageFailure(detail: string): FatalError {
  return {
    title: "webcode cannot open its storage",
    message: `The browser did not let webcode open its IndexedDB database (${detail}). Your files and sessions live there, so the app cannot start without it.`,
    steps: [
      "If this is a private or incognito window, open webcode in a normal window.",
      "Check that the site is allowed to store data (browser settings, site permissions).",
      "Close other webcode tabs that may be upgrading the database, then reload.",
      "If the disk is full, free some space, then reload.",
    ],
  };
}
