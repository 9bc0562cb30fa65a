// A corpus of imperfect edits on real-looking files (test/fixtures/edit-corpus), one case per way a
// model gets oldString wrong. Each case says what a careful human would do: apply the edit the model
// meant (written as the exact oldString/newString it should have sent), or refuse and name the lines.
// Part 1: Go, Python, Java, Kotlin, Rust, C.

export interface CorpusCase {
  title: string;
  /** File name under test/fixtures/edit-corpus. */
  file: string;
  oldString: string;
  newString: string;
  /** The edit meant, as exact text of the file: the result must equal the file with this replacement. */
  intended?: [string, string];
  /** The edit must be refused, and the message must name these line numbers. */
  refuse?: number[];
  /** Run the case on the file with CRLF line endings (the expected result is CRLF too). */
  crlf?: boolean;
  replaceAll?: boolean;
}

export const L = (...lines: string[]): string => lines.join("\n");

export const CASES_PART_1: CorpusCase[] = [
  // ---- Go (tabs) -------------------------------------------------------------------------------
  {
    title: "go: method body written with spaces instead of tabs",
    file: "server.go",
    oldString: L("func (s *Server) Stop(ctx context.Context) error {", "    if s.srv == nil {", '        return errors.New("server not started")', "    }"),
    newString: L("func (s *Server) Stop(ctx context.Context) error {", "    if s.srv == nil {", '        return errors.New("server is not running")', "    }"),
    intended: [
      L("func (s *Server) Stop(ctx context.Context) error {", "\tif s.srv == nil {", '\t\treturn errors.New("server not started")', "\t}"),
      L("func (s *Server) Stop(ctx context.Context) error {", "\tif s.srv == nil {", '\t\treturn errors.New("server is not running")', "\t}"),
    ],
  },
  {
    title: "go: guard shared by Stop and Restart, without the function line",
    file: "server.go",
    oldString: L("if s.srv == nil {", '    return errors.New("server not started")', "}"),
    newString: L("if s.srv == nil {", "    return ErrNotStarted", "}"),
    refuse: [34, 45],
  },
  {
    title: "go: one misremembered middle line that newString rewrites",
    file: "server.go",
    oldString: L("\tif s.srv != nil {", '\t\treturn errors.New("server already started")', "\t}", "\ts.srv = &http.Server{Addr: s.addr, Handler: s.mux}", "\tgo func() {"),
    newString: L(
      "\tif s.srv != nil {",
      '\t\treturn errors.New("server already started")',
      "\t}",
      "\ts.srv = &http.Server{Addr: s.addr, Handler: s.handler, ReadHeaderTimeout: s.timeout}",
      "\tgo func() {",
    ),
    intended: [
      "\ts.srv = &http.Server{Addr: s.addr, Handler: s.handler}\n",
      "\ts.srv = &http.Server{Addr: s.addr, Handler: s.handler, ReadHeaderTimeout: s.timeout}\n",
    ],
  },
  {
    title: "go: Restart described with a line of Stop",
    file: "server.go",
    oldString: L(
      "func (s *Server) Restart(ctx context.Context) error {",
      "\tif s.srv == nil {",
      '\t\treturn errors.New("server not started")',
      "\t}",
      "\terr := s.srv.Shutdown(ctx)",
      "\t\treturn err",
      "\t}",
      "\treturn s.Start()",
      "}",
    ),
    newString: L("func (s *Server) Restart(ctx context.Context) error {", "\treturn s.Start()", "}"),
    refuse: [48, 39],
  },
  {
    title: "go: Stop as it was two versions ago",
    file: "server.go",
    oldString: L(
      "func (s *Server) Stop(ctx context.Context) error {",
      "\tif s.srv == nil {",
      '\t\treturn errors.New("server not started")',
      "\t}",
      "\tctx, cancel := context.WithTimeout(ctx, 5*time.Second)",
      "\tdefer cancel()",
      "\treturn s.srv.Shutdown(ctx)",
      "\ts.srv = nil",
      "\treturn err",
      "}",
    ),
    newString: L("func (s *Server) Stop(ctx context.Context) error {", "\treturn nil", "}"),
    refuse: [33, 42, 37, 39],
  },
  {
    title: "go: delete Restart with its leading line break, spaces for tabs",
    file: "server.go",
    oldString: "\nfunc (s *Server) Restart(ctx context.Context) error {\n    if s.srv == nil {\n        return errors.New(\"server not started\")\n    }\n    if err := s.Stop(ctx); err != nil {\n        return err\n    }\n    return s.Start()\n}\n",
    newString: "",
    intended: [
      "\nfunc (s *Server) Restart(ctx context.Context) error {\n\tif s.srv == nil {\n\t\treturn errors.New(\"server not started\")\n\t}\n\tif err := s.Stop(ctx); err != nil {\n\t\treturn err\n\t}\n\treturn s.Start()\n}\n",
      "",
    ],
  },
  {
    title: "go: 'return err' closing two functions",
    file: "server.go",
    oldString: "    return err\n}\n",
    newString: "    return fmt.Errorf(\"stop: %w\", err)\n}\n",
    refuse: [41, 49],
  },
  {
    title: "go: struct field alignment lost",
    file: "server.go",
    oldString: L("type Server struct {", "\taddr string", "\thandler http.Handler", "\tsrv *http.Server", "\ttimeout time.Duration", "}"),
    newString: L("type Server struct {", "\taddr string", "\thandler http.Handler", "\tsrv *http.Server", "\ttimeout time.Duration", "\tlogger *slog.Logger", "}"),
    intended: [
      L("\ttimeout time.Duration", "}"),
      L("\ttimeout time.Duration", "\tlogger *slog.Logger", "}"),
    ],
  },

  // ---- Python ----------------------------------------------------------------------------------
  {
    title: "python: method written at column 0",
    file: "cache.py",
    oldString: L("def put(self, key, value):", "    if key in self._data:", "        self._data.pop(key)", "    elif len(self._data) >= self.capacity:"),
    newString: L("def put(self, key, value):", "    if key in self._data:", "        self._data.pop(key)", "    elif len(self._data) > self.capacity:"),
    intended: ["        elif len(self._data) >= self.capacity:", "        elif len(self._data) > self.capacity:"],
  },
  {
    title: "python: the same get() in LRUCache and TTLCache, one line misremembered",
    file: "cache.py",
    oldString: L(
      "    def get(self, key, default=None):",
      "        if key not in self._data:",
      "            return default",
      "        value, stamp = self._data.pop(key)",
      "        if self.ttl and time.monotonic() - stamp > self.ttl:",
      "            return default",
      "        self._data[key] = (value, stamp)",
      "        return value",
    ),
    newString: L(
      "    def get(self, key, default=None):",
      "        if key not in self._data:",
      "            return default",
      "        value, stamp = self._data.pop(key)",
      "        if self._expired(stamp):",
      "            return default",
      "        self._data[key] = (value, stamp)",
      "        return value",
    ),
    refuse: [13, 20, 37, 44],
  },
  {
    title: "python: one misremembered line in put(), rewritten",
    file: "cache.py",
    oldString: L(
      "    def put(self, key, value):",
      "        if key in self._data:",
      "            self._data.pop(key)",
      "        elif len(self._data) >= self.capacity:",
      "            self._data.popitem(False)",
      "        self._data[key] = (value, time.monotonic())",
    ),
    newString: L(
      "    def put(self, key, value):",
      "        if key in self._data:",
      "            self._data.pop(key)",
      "        elif len(self._data) >= self.capacity:",
      "            self._data.popitem(last=False)  # evict the oldest",
      "        self._data[key] = (value, time.monotonic())",
    ),
    intended: ["            self._data.popitem(last=False)\n", "            self._data.popitem(last=False)  # evict the oldest\n"],
  },
  {
    title: "python: newString keeps the misremembered line",
    file: "cache.py",
    oldString: L(
      "    def put(self, key, value):",
      "        if key in self._data:",
      "            self._data.pop(key)",
      "        elif len(self._data) >= self.capacity:",
      "            self._data.popitem(False)",
      "        self._data[key] = (value, time.monotonic())",
    ),
    newString: L(
      "    def put(self, key, value):",
      "        if key in self._data:",
      "            self._data.pop(key)",
      "        elif len(self._data) >= self.capacity:",
      "            self._data.popitem(False)",
      "        self._data[key] = (value, self._clock())",
    ),
    refuse: [26],
  },
  {
    title: "python: delete() from an older version",
    file: "cache.py",
    oldString: L("    def delete(self, key):", "        if key not in self._data:", "            return None", "        del self._data[key]", "        return True"),
    newString: L("    def delete(self, key):", "        return self._data.pop(key, None) is not None"),
    refuse: [29, 33, 31, 32],
  },
  {
    title: "python: remove two lines with their line break, indentation slipped",
    file: "cache.py",
    oldString: "    if self.ttl is not None and time.monotonic() - stamp > self.ttl:\n        return default\n",
    newString: "",
    intended: ["        if self.ttl is not None and time.monotonic() - stamp > self.ttl:\n            return default\n", ""],
  },
  {
    title: "python: guard with double escaping, unique thanks to the def line",
    file: "cache.py",
    oldString: "    def delete(self, key):\\n        if key not in self._data:\\n            return False",
    newString: "    def delete(self, key):\\n        if key not in self._data:\\n            raise KeyError(key)",
    intended: ["            return False", "            raise KeyError(key)"],
  },
  {
    title: "python: double-escaped guard found in two methods",
    file: "cache.py",
    oldString: "        if key not in self._data:\\n            return default",
    newString: "        if key not in self._data:\\n            return self._miss(key, default)",
    refuse: [14, 38],
  },
  {
    title: "python: blank-line padding the file does not have",
    file: "cache.py",
    oldString: "\n\n        self.ttl = ttl\n",
    newString: "\n\n        self.ttl = ttl if ttl is None else float(ttl)\n",
    intended: ["        self.ttl = ttl\n", "        self.ttl = ttl if ttl is None else float(ttl)\n"],
  },
  {
    title: "python: TTLCache.get, unique by its expiry line, written at column 0",
    file: "cache.py",
    oldString: L("value, stamp = self._data.pop(key)", "if time.monotonic() - stamp > self.ttl:", "    return default"),
    newString: L("value, stamp = self._data.pop(key)", "if time.monotonic() - stamp >= self.ttl:", "    return default"),
    intended: ["        if time.monotonic() - stamp > self.ttl:", "        if time.monotonic() - stamp >= self.ttl:"],
  },

  // ---- Java (overloads) ------------------------------------------------------------------------
  {
    title: "java: write(String) described with the out.write line of write(char[])",
    file: "CountingWriter.java",
    oldString: L("public void write(String s) throws IOException {", "    ensureOpen();", "    out.write(buf);", "    count += s.length();", "}"),
    newString: L("public void write(String s) throws IOException {", "    ensureOpen();", "    out.append(s);", "    count += s.length();", "}"),
    refuse: [17, 23],
  },
  {
    title: "java: write(String) header on the body of write(char[])",
    file: "CountingWriter.java",
    oldString: L("public void write(String s) throws IOException {", "    ensureOpen();", "    out.write(buf);", "    count += buf.length;", "}"),
    newString: L("public void write(String s) throws IOException {", "    write(s.toCharArray());", "}"),
    refuse: [15, 19, 23, 24],
  },
  {
    title: "java: body of write(char[]) with its indentation halved",
    file: "CountingWriter.java",
    oldString: L("    ensureOpen();", "    out.write(buf);", "    count += buf.length;"),
    newString: L("    ensureOpen();", "    out.write(buf);", "    count += (long) buf.length;"),
    intended: ["        count += buf.length;", "        count += (long) buf.length;"],
  },
  {
    title: "java: flush() in a CRLF file, model sends LF",
    file: "CountingWriter.java",
    crlf: true,
    oldString: L("    public void flush() throws IOException {", "        out.flush();", "    }"),
    newString: L("    public void flush() throws IOException {", "        ensureOpen();", "        out.flush();", "    }"),
    intended: [
      L("    public void flush() throws IOException {", "        out.flush();"),
      L("    public void flush() throws IOException {", "        ensureOpen();", "        out.flush();"),
    ],
  },
  {
    title: "java: @Override ... } fits two blocks",
    file: "CountingWriter.java",
    oldString: L("@Override", "public void write(char[] buf, int off, int len) throws IOException {", "    ensureOpen();", "    out.write(buf, 0, len);", "    count += len;", "}"),
    newString: L("@Override", "public void write(char[] buf, int off, int len) throws IOException {", "    ensureOpen();", "    out.write(buf, off, len);", "    count += (long) len;", "}"),
    refuse: [27, 32, 49, 54],
  },
  {
    title: "java: one misremembered line in write(char[], int, int), anchors unique",
    file: "CountingWriter.java",
    oldString: L(
      "    public void write(char[] buf, int off, int len) throws IOException {",
      "        ensureOpen();",
      "        out.write(buf, 0, len);",
      "        count += len;",
      "    }",
    ),
    newString: L(
      "    public void write(char[] buf, int off, int len) throws IOException {",
      "        ensureOpen();",
      "        out.write(buf, off, len);",
      "        count += len;",
      "        if (count < 0) count = Long.MAX_VALUE;",
      "    }",
    ),
    intended: ["        count += len;\n    }\n", "        count += len;\n        if (count < 0) count = Long.MAX_VALUE;\n    }\n"],
  },
  {
    title: "java: trailing whitespace the model added on every line",
    file: "CountingWriter.java",
    oldString: "    private void ensureOpen() throws IOException {  \n        if (closed) {  \n            throw new IOException(\"writer closed\");  ",
    newString: "    private void ensureOpen() throws IOException {  \n        if (closed) {  \n            throw new IOException(\"CountingWriter is closed\");  ",
    intended: ['            throw new IOException("writer closed");', '            throw new IOException("CountingWriter is closed");'],
  },

  // ---- Kotlin (overloads) ----------------------------------------------------------------------
  {
    title: "kotlin: user(name) described with the fetch line of user(id)",
    file: "Repository.kt",
    oldString: L(
      "suspend fun user(name: String): User = withContext(Dispatchers.IO) {",
      "    val cached = dao.findByName(name)",
      "    if (cached != null) {",
      "        return@withContext cached",
      "    }",
      "    val fresh = api.fetchUser(id)",
      "    dao.insert(fresh)",
      "    fresh",
      "}",
    ),
    newString: L(
      "suspend fun user(name: String): User = withContext(Dispatchers.IO) {",
      "    val cached = dao.findByName(name)",
      "    if (cached != null) {",
      "        return@withContext cached",
      "    }",
      "    val fresh = api.fetchUserByName(name.trim())",
      "    dao.insert(fresh)",
      "    fresh",
      "}",
    ),
    refuse: [23, 13, 29],
  },
  {
    title: "kotlin: user(id) at column 0",
    file: "Repository.kt",
    oldString: L("suspend fun user(id: Long): User = withContext(Dispatchers.IO) {", "    val cached = dao.find(id)"),
    newString: L("suspend fun user(id: Long): User = withContext(Dispatchers.IO) {", "    val cached = dao.findById(id)"),
    intended: ["        val cached = dao.find(id)", "        val cached = dao.findById(id)"],
  },
  {
    title: "kotlin: user(id) from before the DAO was renamed",
    file: "Repository.kt",
    oldString: L(
      "    suspend fun user(id: Long): User = withContext(Dispatchers.IO) {",
      "        val cached = userDao.get(id)",
      "        if (cached != null) {",
      "            return@withContext cached",
      "        }",
      "        val fresh = api.getUser(id)",
      "        dao.insert(fresh)",
      "        fresh",
      "    }",
    ),
    newString: L("    suspend fun user(id: Long): User = withContext(Dispatchers.IO) {", "        dao.find(id) ?: api.fetchUser(id).also(dao::insert)", "    }"),
    refuse: [8, 16, 9, 13],
  },
  {
    title: "kotlin: the shared cache check, two places",
    file: "Repository.kt",
    oldString: L("if (cached != null) {", "    return@withContext cached", "}"),
    newString: L("cached?.let { return@withContext it }"),
    refuse: [10, 20],
  },
  {
    title: "kotlin: refresh() with 2-space indentation and a trailing blank line",
    file: "Repository.kt",
    oldString: "  suspend fun refresh(id: Long) = withContext(Dispatchers.IO) {\n    val fresh = api.fetchUser(id)\n    dao.insert(fresh)\n  }\n",
    newString: "  suspend fun refresh(id: Long) = withContext(Dispatchers.IO) {\n    dao.insert(api.fetchUser(id))\n  }\n",
    intended: [
      "        val fresh = api.fetchUser(id)\n        dao.insert(fresh)\n    }\n}",
      "        dao.insert(api.fetchUser(id))\n    }\n}",
    ],
  },

  // ---- Rust ------------------------------------------------------------------------------------
  {
    title: "rust: with_env panics on the with_jobs message",
    file: "config.rs",
    oldString: L(
      "    pub fn with_env(mut self, key: &str, value: &str) -> Self {",
      "        if key.is_empty() {",
      '            panic!("jobs must be positive");',
      "        }",
      "        self.env.insert(key.to_string(), value.to_string());",
    ),
    newString: L(
      "    pub fn with_env(mut self, key: &str, value: &str) -> Self {",
      "        if key.is_empty() {",
      '            panic!("environment key must not be empty");',
      "        }",
      "        self.env.insert(key.to_string(), value.to_string());",
    ),
    refuse: [30, 22],
  },
  {
    title: "rust: sibling tests, one misremembered assertion line, anchors ambiguous",
    file: "config.rs",
    oldString: L("    #[test]", "    fn custom_jobs() {", "        let config = Config::new(PathBuf::from(\"/tmp\")).jobs(8);", "        assert_eq!(config.jobs, 8);", "    }"),
    newString: L("    #[test]", "    fn custom_jobs() {", "        let config = Config::new(PathBuf::from(\"/tmp\")).with_jobs(16);", "        assert_eq!(config.jobs, 16);", "    }"),
    refuse: [47, 51],
  },
  {
    title: "rust: one misremembered line, unique anchors, rewritten",
    file: "config.rs",
    oldString: L(
      "    fn custom_jobs() {",
      "        let config = Config::new(PathBuf::from(\"/tmp\")).jobs(8);",
      "        assert_eq!(config.jobs, 8);",
      "    }",
      "}",
    ),
    newString: L(
      "    fn custom_jobs() {",
      "        let config = Config::new(PathBuf::from(\"/tmp\")).with_jobs(16);",
      "        assert_eq!(config.jobs, 16);",
      "    }",
      "}",
    ),
    intended: [
      '        let config = Config::new(PathBuf::from("/tmp")).with_jobs(8);\n        assert_eq!(config.jobs, 8);',
      '        let config = Config::new(PathBuf::from("/tmp")).with_jobs(16);\n        assert_eq!(config.jobs, 16);',
    ],
  },
  {
    title: "rust: new() body with whitespace runs and lost indentation",
    file: "config.rs",
    oldString: L("Config {", "    root,", "    jobs:  4,", "    env: HashMap::new(),", "}"),
    newString: L("Config {", "    root,", "    jobs: num_cpus(),", "    env: HashMap::new(),", "}"),
    intended: ["            jobs: 4,", "            jobs: num_cpus(),"],
  },

  // ---- C (tabs) --------------------------------------------------------------------------------
  {
    title: "c: ring_read described with the loop condition of ring_write",
    file: "ring.c",
    oldString: L(
      "size_t ring_read(struct ring *r, char *dst, size_t len)",
      "{",
      "\tsize_t n = 0;",
      "",
      "\twhile (n < len && ring_space(r) > 0) {",
      "\t\tdst[n++] = r->buf[r->tail];",
      "\t\tr->tail = (r->tail + 1) % r->capacity;",
      "\t}",
      "\treturn n;",
      "}",
    ),
    newString: L("size_t ring_read(struct ring *r, char *dst, size_t len)", "{", "\treturn ring_copy_out(r, dst, len);", "}"),
    refuse: [31, 20],
  },
  {
    title: "c: the index update of ring_write, spaces for tabs",
    file: "ring.c",
    oldString: L("        r->buf[r->head] = src[n++];", "        r->head = (r->head + 1) % r->capacity;"),
    newString: L("        r->buf[r->head] = src[n++];", "        r->head = (r->head + 1) & (r->capacity - 1);"),
    intended: ["\t\tr->head = (r->head + 1) % r->capacity;", "\t\tr->head = (r->head + 1) & (r->capacity - 1);"],
  },
  {
    title: "c: 'size_t n = 0;' and its blank line, in two functions",
    file: "ring.c",
    oldString: "\tsize_t n = 0;\n\n",
    newString: "\tsize_t n;\n\n",
    refuse: [18, 29],
  },
  {
    title: "c: ring_free with a trailing blank line the file lacks at EOF",
    file: "ring.c",
    oldString: "void ring_free(struct ring *r)\n{\n    free(r->buf);\n    r->buf = NULL;\n}\n\n",
    newString: "void ring_free(struct ring *r)\n{\n    free(r->buf);\n    r->buf = NULL;\n    r->capacity = 0;\n}\n\n",
    intended: ["\tr->buf = NULL;\n}\n", "\tr->buf = NULL;\n\tr->capacity = 0;\n}\n"],
  },
  {
    title: "c: ring_init from an older version (two lines differ)",
    file: "ring.c",
    oldString: L(
      "int ring_init(struct ring *r, size_t capacity)",
      "{",
      "\tr->buf = calloc(1, capacity);",
      "\tif (!r->buf)",
      "\t\treturn -1;",
      "\tr->capacity = capacity;",
    ),
    newString: L("int ring_init(struct ring *r, size_t capacity)", "{", "\tr->buf = calloc(1, capacity);", "\tif (!r->buf)", "\t\treturn -ENOMEM;", "\tr->capacity = capacity;"),
    refuse: [5, 10, 7, 8],
  },
];

export const CASES_PART_1_MORE: CorpusCase[] = [
  {
    title: "python: one misremembered line in a double-escaped put(), rewritten",
    file: "cache.py",
    oldString:
      "    def put(self, key, value):\\n        if key in self._data:\\n            self._data.pop(key)\\n        elif len(self._data) > self.capacity:\\n            self._data.popitem(last=False)",
    newString:
      "    def put(self, key, value):\\n        if key in self._data:\\n            self._data.pop(key)\\n        elif len(self._data) >= self.capacity > 0:\\n            self._data.popitem(last=False)",
    intended: ["        elif len(self._data) >= self.capacity:", "        elif len(self._data) >= self.capacity > 0:"],
  },
  {
    title: "java: one misremembered line with typographic quotes elsewhere in the block",
    file: "CountingWriter.java",
    oldString: L(
      "    private void ensureOpen() throws IOException {",
      "        if (closed || out == null) {",
      "            throw new IOException(\u201Cwriter closed\u201D);",
      "        }",
      "    }",
    ),
    newString: L(
      "    private void ensureOpen() throws IOException {",
      "        if (closed) {",
      "            throw new IOException(\u201Cwriter closed\u201D);",
      "        }",
      "    }",
    ),
    // newString rewrites the misremembered condition to what the file has: nothing changes.
    refuse: [],
  },
  {
    title: "java: one misremembered line, typographic quotes, real change",
    file: "CountingWriter.java",
    oldString: L(
      "    private void ensureOpen() throws IOException {",
      "        if (closed || out == null) {",
      "            throw new IOException(\u201Cwriter closed\u201D);",
      "        }",
      "    }",
    ),
    newString: L(
      "    private void ensureOpen() throws IOException {",
      "        if (closed) {",
      "            throw new IOException(\u201Cwriter already closed\u201D);",
      "        }",
      "    }",
    ),
    intended: ['            throw new IOException("writer closed");', '            throw new IOException("writer already closed");'],
  },
  {
    title: "go: Start with a misremembered line and 2-space indentation, rewritten",
    file: "server.go",
    oldString: L(
      "func (s *Server) Start() error {",
      "  if s.srv != nil {",
      '    return errors.New("already started")',
      "  }",
      "  s.srv = &http.Server{Addr: s.addr, Handler: s.handler}",
    ),
    newString: L(
      "func (s *Server) Start() error {",
      "  if s.srv != nil {",
      "    return ErrAlreadyStarted",
      "  }",
      "  s.srv = &http.Server{Addr: s.addr, Handler: s.handler}",
    ),
    intended: ['\t\treturn errors.New("server already started")', "\t\treturn ErrAlreadyStarted"],
  },
  {
    title: "kotlin: refresh() whose misremembered line exists in user(id)",
    file: "Repository.kt",
    oldString: L(
      "    suspend fun refresh(id: Long) = withContext(Dispatchers.IO) {",
      "        val cached = dao.find(id)",
      "        dao.insert(fresh)",
      "    }",
      "}",
    ),
    newString: L("    suspend fun refresh(id: Long) = withContext(Dispatchers.IO) {", "        dao.insert(api.fetchUser(id))", "    }", "}"),
    refuse: [29, 9],
  },
];
