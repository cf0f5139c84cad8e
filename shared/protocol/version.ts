/**
 * The protocol version, alone in a leaf module (it imports nothing) so that every message type can name
 * it without importing the modules of other messages. Its meaning and history: `PROTOCOL_VERSION` in wire.ts.
 */

/**
 * Version of the wire protocol. Every `subscribe…` and `record` names the version its page was built with;
 * the server answers any other version with `protocol-mismatch` ("reload the page"). See wire.ts.
 */
export const PROTOCOL_VERSION = 4;
