// The ASCII history graph of `git log --graph`, drawn line for line as git draws it (the same
// lanes, the same `|`, `/`, `\`, `_` and `-.` strokes, the same padding), so that a model or a user
// who knows git's picture reads ours the same way; git-differential tests compare them byte for
// byte. The state machine follows git's documented behaviour: each commit first gets its lanes
// (a lane per pending commit, parents taking the commit's lane), then lines are drawn in states:
// before the commit (an octopus needs room), the commit's own line, the line after a merge (its
// edges fanning out) and lines that move lanes left until every edge is in its lane (collapsing).
// No colour: output is for terminals that scroll and for the agent.

type State = "padding" | "skip" | "pre-commit" | "commit" | "post-merge" | "collapsing";

export class HistoryGraph {
  private commit: string | undefined;
  private parents: string[] = [];
  /** Lanes before this commit's line, and after it (each the commit it waits for). */
  private columns: string[] = [];
  private newColumns: string[] = [];
  /** Screen position (2 per lane, the odd ones between lanes) → the new lane an edge there goes to; -1 none. */
  private mapping: number[] = [];
  private oldMapping: number[] = [];
  private mappingSize = 0;
  private width = 0;
  private state: State = "padding";
  private previousState: State = "padding";
  private commitIndex = 0;
  private previousCommitIndex = 0;
  /** For a merge: 0 when its first parent is in a lane to its left, 1 otherwise. */
  private mergeLayout = -1;
  private edgesAdded = 0;
  private previousEdgesAdded = 0;
  private expansionRow = 0;

  /** The next commit to draw, with its parents (those shown in this log). */
  update(commit: string, parents: string[]): void {
    this.commit = commit;
    this.parents = parents;
    this.previousCommitIndex = this.commitIndex;
    this.updateColumns();
    this.expansionRow = 0;
    if (this.state !== "padding") this.state = "skip";
    else if (this.needsPreCommitLine()) this.state = "pre-commit";
    else this.state = "commit";
  }

  /** Whether the lines of the current commit are all drawn. */
  finished(): boolean {
    return this.state === "padding";
  }

  /** The next line of graph; whether it was the commit's own line. */
  nextLine(): { text: string; isCommit: boolean } {
    const line: string[] = [];
    let isCommit = false;
    switch (this.state) {
      case "padding":
        for (let i = 0; i < this.newColumns.length; i++) line.push("|", " ");
        break;
      case "skip":
        line.push("...");
        this.setState(this.needsPreCommitLine() ? "pre-commit" : "commit");
        break;
      case "pre-commit":
        this.preCommitLine(line);
        break;
      case "commit":
        this.commitLine(line);
        isCommit = true;
        break;
      case "post-merge":
        this.postMergeLine(line);
        break;
      case "collapsing":
        this.collapsingLine(line);
        break;
    }
    return { text: this.padded(line.join("")), isCommit };
  }

  /** The separator line between two commits' texts: the lanes as they stand. */
  paddingLine(): string {
    if (this.state !== "commit") return this.nextLine().text;
    let text = "";
    for (const column of this.columns) text += column === this.commit && this.parents.length > 2 ? `|${" ".repeat((this.parents.length - 2) * 2)}` : "| ";
    this.previousState = "padding";
    return this.padded(text);
  }

  private padded(text: string): string {
    return text.length < this.width ? text + " ".repeat(this.width - text.length) : text;
  }

  private setState(state: State): void {
    this.previousState = this.state;
    this.state = state;
  }

  private dashedParents(): number {
    return this.parents.length + this.mergeLayout - 3;
  }

  private needsPreCommitLine(): boolean {
    return this.parents.length >= 3 && this.commitIndex < this.columns.length - 1 && this.expansionRow < this.dashedParents() * 2;
  }

  private mappingCorrect(): boolean {
    for (let i = 0; i < this.mappingSize; i++) {
      const target = this.mapping[i]!;
      if (target >= 0 && target !== Math.floor(i / 2)) return false;
    }
    return true;
  }

  private updateColumns(): void {
    this.columns = this.newColumns;
    this.newColumns = [];
    const most = this.columns.length + this.parents.length;
    this.mappingSize = 2 * most;
    this.mapping = new Array<number>(this.mappingSize).fill(-1);
    if (this.oldMapping.length < this.mappingSize) this.oldMapping = [...this.oldMapping, ...new Array<number>(this.mappingSize - this.oldMapping.length).fill(-1)];
    this.width = 0;
    this.previousEdgesAdded = this.edgesAdded;
    this.edgesAdded = 0;
    let seen = false;
    for (let i = 0; i <= this.columns.length; i++) {
      if (i === this.columns.length && seen) break;
      const lane = i === this.columns.length ? this.commit : this.columns[i];
      if (lane === this.commit) {
        seen = true;
        this.commitIndex = i;
        this.mergeLayout = -1;
        for (const parent of this.parents) this.place(parent, i);
        // The commit takes two characters even when nothing continues below it.
        if (this.parents.length === 0) this.width += 2;
      } else this.place(lane!, -1);
    }
    while (this.mappingSize > 1 && this.mapping[this.mappingSize - 1]! < 0) this.mappingSize--;
  }

  /** Gives `commit` a new lane (or finds its lane) and maps the edge at the current width to it; `from` is the commit's lane for its parents. */
  private place(commit: string, from: number): void {
    let lane = this.newColumns.indexOf(commit);
    if (lane < 0) {
      lane = this.newColumns.length;
      this.newColumns.push(commit);
    }
    let at: number;
    if (this.parents.length > 1 && from > -1 && this.mergeLayout === -1) {
      // A merge's first parent: its edges lean left when that parent's lane is to the left.
      const distance = from - lane;
      const shift = distance > 1 ? 2 * distance - 3 : 1;
      this.mergeLayout = distance > 0 ? 0 : 1;
      this.edgesAdded = this.parents.length + this.mergeLayout - 2;
      at = this.width + (this.mergeLayout - 1) * shift;
      this.width += 2 * this.mergeLayout;
    } else if (this.edgesAdded > 0 && lane === this.mapping[this.width - 2]) {
      // The merge's last edge goes where the lane beside it goes: they join at once.
      at = this.width - 2;
      this.edgesAdded = -1;
    } else {
      at = this.width;
      this.width += 2;
    }
    this.mapping[at] = lane;
  }

  private preCommitLine(line: string[]): void {
    let seen = false;
    for (let i = 0; i < this.columns.length; i++) {
      if (this.columns[i] === this.commit) {
        seen = true;
        line.push("|", " ".repeat(this.expansionRow));
      } else if (seen && this.expansionRow === 0) {
        line.push(this.previousState === "post-merge" && this.previousCommitIndex < i ? "\\" : "|");
      } else if (seen) line.push("\\");
      else line.push("|");
      line.push(" ");
    }
    this.expansionRow++;
    if (!this.needsPreCommitLine()) this.setState("commit");
  }

  private commitLine(line: string[]): void {
    let seen = false;
    for (let i = 0; i <= this.columns.length; i++) {
      if (i === this.columns.length && seen) break;
      const lane = i === this.columns.length ? this.commit : this.columns[i];
      if (lane === this.commit) {
        seen = true;
        line.push("*");
        if (this.parents.length > 2) {
          const dashed = this.dashedParents();
          for (let d = 0; d < dashed; d++) line.push("-", d === dashed - 1 ? "." : "-");
        }
      } else if (seen && this.edgesAdded > 1) line.push("\\");
      else if (seen && this.edgesAdded === 1) {
        line.push(this.previousState === "post-merge" && this.previousEdgesAdded > 0 && this.previousCommitIndex < i ? "\\" : "|");
      } else if (this.previousState === "collapsing" && this.oldMapping[2 * i + 1] === i && this.mapping[2 * i]! < i) line.push("/");
      else line.push("|");
      line.push(" ");
    }
    if (this.parents.length > 1) this.setState("post-merge");
    else if (this.mappingCorrect()) this.setState("padding");
    else this.setState("collapsing");
  }

  private postMergeLine(line: string[]): void {
    const strokes = ["/", "|", "\\"];
    let seen = false;
    let firstParentSeen = false;
    for (let i = 0; i <= this.columns.length; i++) {
      if (i === this.columns.length && seen) break;
      const lane = i === this.columns.length ? this.commit : this.columns[i];
      if (lane === this.commit) {
        seen = true;
        let stroke = this.mergeLayout;
        for (let j = 0; j < this.parents.length; j++) {
          line.push(strokes[stroke]!);
          if (stroke === 2) {
            if (this.edgesAdded > 0 || j < this.parents.length - 1) line.push(" ");
          } else stroke++;
        }
        if (this.edgesAdded === 0) line.push(" ");
      } else if (seen) {
        line.push(this.edgesAdded > 0 ? "\\" : "|", " ");
      } else {
        line.push("|");
        if (this.mergeLayout !== 0 || i !== this.commitIndex - 1) line.push(firstParentSeen ? "_" : " ");
      }
      if (lane === this.parents[0]) firstParentSeen = true;
    }
    this.setState(this.mappingCorrect() ? "padding" : "collapsing");
  }

  private collapsingLine(line: string[]): void {
    [this.mapping, this.oldMapping] = [this.oldMapping, this.mapping];
    for (let i = 0; i < this.mappingSize; i++) this.mapping[i] = -1;
    let horizontal = -1;
    let horizontalTarget = -1;
    for (let i = 0; i < this.mappingSize; i++) {
      const target = this.oldMapping[i]!;
      if (target < 0) continue;
      if (target * 2 === i) this.mapping[i] = target;
      else if (this.mapping[i - 1]! < 0) {
        // Nothing to the left: move one step left, the first such edge drawn across with `_`.
        this.mapping[i - 1] = target;
        if (horizontal === -1) {
          horizontal = i;
          horizontalTarget = target;
          for (let j = target * 2 + 3; j < i - 2; j += 2) this.mapping[j] = target;
        }
      } else if (this.mapping[i - 1] === target) {
        // Joins the edge to its left, which goes to the same lane.
      } else {
        // Crosses the edge to its left.
        this.mapping[i - 2] = target;
        if (horizontal === -1) {
          horizontalTarget = target;
          horizontal = i - 1;
          for (let j = target * 2 + 3; j < i - 2; j += 2) this.mapping[j] = target;
        }
      }
    }
    for (let i = 0; i < this.mappingSize; i++) this.oldMapping[i] = this.mapping[i]!;
    if (this.mapping[this.mappingSize - 1]! < 0) this.mappingSize--;
    let usedHorizontal = false;
    for (let i = 0; i < this.mappingSize; i++) {
      const target = this.mapping[i]!;
      if (target < 0) line.push(" ");
      else if (target * 2 === i) line.push("|");
      else if (target === horizontalTarget && i !== horizontal - 1) {
        if (i !== target * 2 + 3) this.mapping[i] = -1;
        usedHorizontal = true;
        line.push("_");
      } else {
        if (usedHorizontal && i < horizontal) this.mapping[i] = -1;
        line.push("/");
      }
    }
    if (this.mappingCorrect()) this.setState("padding");
  }
}
