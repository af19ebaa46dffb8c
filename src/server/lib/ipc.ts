/** The `type` of a message between a cluster's processes (node's IPC delivers anything JSON can carry). */
export const messageType = (message: unknown): unknown => (typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined);
