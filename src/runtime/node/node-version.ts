// The Node.js version the browser runtime's node answers to (its built-ins follow this line).
export const NODE_VERSION = "v22.12.0";
