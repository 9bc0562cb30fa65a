// A reused interpreter starts every run as a fresh `python3` process would (docs/architecture.md
// "python3 in the browser runtime"): the first run records the state Pyodide starts with; every later
// run puts it back before the program starts. The modules a program imported (the workspace's
// included, so edited files are read again) are forgotten, sys.path, the import machinery, the
// standard streams and hooks are restored, and the state that the standard-library modules loaded at
// start keep (logging's loggers, warnings' filters, random's seed, tempfile's folder) is reset. The
// builtins module is put back too. The driver sets sys.argv, the working folder and the environment itself.
export const FRESH = String.raw`
def __webcode_fresh():
    import builtins, sys, logging, random, tempfile, warnings
    base = globals().get("__webcode_base")
    if base is None:
        globals()["__webcode_base"] = {
            "modules": dict(sys.modules),
            "builtins": dict(builtins.__dict__),
            "path": list(sys.path),
            "meta_path": list(sys.meta_path),
            "path_hooks": list(sys.path_hooks),
            "streams": (sys.stdout, sys.stderr),
            "hooks": (sys.displayhook, sys.excepthook, sys.breakpointhook),
            "recursion": sys.getrecursionlimit(),
            "warnings": list(warnings.filters),
            "logging": (logging.root.level, list(logging.root.handlers), dict(logging.Logger.manager.loggerDict)),
        }
        return
    for name in [name for name in sys.modules if name not in base["modules"]]:
        del sys.modules[name]
    sys.modules.update(base["modules"])
    for name in [name for name in builtins.__dict__ if name not in base["builtins"]]:
        del builtins.__dict__[name]
    builtins.__dict__.update(base["builtins"])
    sys.path[:] = base["path"]
    sys.meta_path[:] = base["meta_path"]
    sys.path_hooks[:] = base["path_hooks"]
    # New path finders read the folders again (importlib.invalidate_caches() would import
    # importlib.metadata, which the next run forgets again: 30-60 ms a run).
    sys.path_importer_cache.clear()
    sys.stdout, sys.stderr = base["streams"]
    sys.displayhook, sys.excepthook, sys.breakpointhook = base["hooks"]
    sys.setrecursionlimit(base["recursion"])
    # Input left unread in the last run's buffer must not reach this one.
    sys.stdin = open(0, "r", encoding="utf-8", closefd=False)
    warnings.filters[:] = base["warnings"]
    try:
        warnings._filters_mutated()
    except Exception:
        pass
    level, handlers, loggers = base["logging"]
    logging.root.setLevel(level)
    logging.root.handlers[:] = handlers
    logging.Logger.manager.loggerDict.clear()
    logging.Logger.manager.loggerDict.update(loggers)
    logging.disable(logging.NOTSET)
    random.seed()
    tempfile.tempdir = None
`;
