/**
 * Room names (shared/protocol/rooms.ts), the one module the server and the pages' client both name rooms with:
 * each name and its inverse, and no room of one kind read as another.
 */
import { describe, expect, it } from 'vitest';
import { drawOfRoom, drawRoom, eventOfRoom, eventRoom, matchOfRoom, matchRoom, tableOfRoom, tableRoom } from '../../shared/protocol/rooms';
import { PROTOCOL_VERSION, type ClientMessage, type ClientMessageType, type ServerPushType } from '../../shared/protocol/messages';

describe('room names', () => {
  it('name each room and split back to what named it', () => {
    expect(matchRoom('m-1')).toBe('match:m-1');
    expect(matchRoom('m-1', 'scorebug')).toBe('scorebug:m-1');
    expect(tableRoom('ev_1', 'tv-table')).toBe('table:ev_1/tv-table');
    expect(eventRoom('ev_1')).toBe('event:ev_1');
    expect(drawRoom('ev_1')).toBe('draw:ev_1');
    for (const id of ['m-1', 'A_b-9', 'x'.repeat(64)]) {
      expect(matchOfRoom(matchRoom(id))).toBe(id);
      expect(matchOfRoom(matchRoom(id, 'scorebug'))).toBe(id);
      expect(tableOfRoom(tableRoom(id, 'table-1'))).toEqual([id, 'table-1']);
      expect(eventOfRoom(eventRoom(id))).toBe(id);
      expect(drawOfRoom(drawRoom(id))).toBe(id);
    }
  });

  it('read a room of another kind, or a socket id, as none of theirs', () => {
    const others = [matchRoom('m'), matchRoom('m', 'scorebug'), tableRoom('e', 't'), eventRoom('e'), drawRoom('e'), 'Zr3x9_socket-id'];
    expect(others.map(matchOfRoom)).toEqual(['m', 'm', null, null, null, null]);
    expect(others.map(tableOfRoom)).toEqual([null, null, ['e', 't'], null, null, null]);
    expect(others.map(eventOfRoom)).toEqual([null, null, null, 'e', null, null]);
    expect(others.map(drawOfRoom)).toEqual([null, null, null, null, 'e', null]);
  });
});

describe('messages of each direction (shared/protocol/messages.ts)', () => {
  it('name every Socket.IO event of wire.ts once, by type', () => {
    // Compile-time: the unions cover exactly the event maps (a missing or extra name fails the typecheck).
    const client: Record<ClientMessageType, true> = {
      subscribe: true,
      unsubscribe: true,
      record: true,
      subscribeTable: true,
      unsubscribeTable: true,
      subscribeEvent: true,
      unsubscribeEvent: true,
      subscribeDraw: true,
      unsubscribeDraw: true,
      time: true,
      shotClock: true,
      shotClockAction: true,
    };
    const server: Record<ServerPushType, true> = { state: true, table: true, event: true, eventLive: true, draw: true, shotClock: true, sheetPage: true };
    const record: ClientMessage = { type: 'record', body: { protocol: PROTOCOL_VERSION, matchId: 'm', stepId: 's1', step: { undo: true } } };
    expect(Object.keys(client)).toHaveLength(12);
    expect(Object.keys(server)).toHaveLength(7);
    expect(record.type === 'record' && record.body.stepId).toBe('s1');
  });
});
