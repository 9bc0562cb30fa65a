// Types for sync-server.mjs (plain JavaScript so that `npm run sync-server` needs no TypeScript step).
export type RoomAccess = "read" | "write";
export declare function signRoomToken(options: { room: string; access: RoomAccess; secret: string; expiresAt?: number }): string;
export declare function verifyRoomToken(token: unknown, room: string, secret: string, now?: number): { access: RoomAccess } | null;
export declare function openSqliteStore(file: string): Promise<{
  fetch(name: string): Uint8Array | null;
  store(name: string, state: Uint8Array): void;
  close(): void;
}>;
export declare function startSyncServer(options: {
  port?: number;
  host?: string;
  dbFile: string;
  secret: string;
  quiet?: boolean;
  /** redis://host:port: several instances relay updates through this Redis (@hocuspocus/extension-redis). */
  redisUrl?: string;
}): Promise<{ port: number; url: string; close(): Promise<void> }>;
/** `POST /invite`: a token for the caller's room, with no more rights and no later expiry than the caller's. */
export declare function mintInvite(options: { authorization: string | undefined; body: string; secret: string; now?: number }): {
  status: number;
  body: { room?: string; access?: RoomAccess; exp?: number; token?: string; error?: string };
};
