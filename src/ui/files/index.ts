// The file tree panel.
export { FileTree, type FileTreeProps } from "./file-tree";
export { buildTree, visibleRows, navigate, ancestors, type TreeNode, type TreeRow } from "./file-tree-model";
export { checkNewName, checkRename, checkMove } from "./file-names";
