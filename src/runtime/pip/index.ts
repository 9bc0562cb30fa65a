// pip for the browser runtime (loaded on first use, so the page's first chunk does not grow).
export { runPip, PIP_VERSION, SITE_PACKAGES, type PipContext, type PipResult } from "./cli";
export { IndexClient, PipError, DEFAULT_INDEX, indexFromConfig, type IndexFetch } from "./index-client";
export { install, readInstalled, removeDist, INSTALLER, type Site } from "./install";
export { parseRequirement, parseMarker, evaluateMarker, applies, normalizeName, PYODIDE_ENV, PYTHON_VERSION, PYTHON_FULL_VERSION } from "./requirement";
export { parseWheelName, isPureWheel, unpackWheel, parseMetadata, recordPaths } from "./wheel";
