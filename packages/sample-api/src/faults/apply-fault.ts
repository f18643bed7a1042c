import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationName } from '@print-contracts/client';
import { jsonAnswer, send } from '../http/answer.js';
import type { FaultEffect } from './fault-injector.js';

interface FaultBodies {
  /** A plausible answer, cut short by `truncate`. */
  readonly plausible: string;
  /** Valid JSON that breaks the operation's response schema. */
  readonly broken: unknown;
  readonly status: number;
}

const SUMMARY =
  '{"id":1000001,"number":"DDB1000001","status":"completed","date":"2024-03-14T10:00:00+01:00","uuid":null}';
const LIST: FaultBodies = {
  plausible: `{"count":2,"orders":[${SUMMARY},${SUMMARY}]}`,
  broken: { count: 'two', orders: [{ id: 'DDB1000001', status: 'shipped-ish' }] },
  status: 200,
};
const DETAIL: FaultBodies = {
  plausible: `{"id":1000001,"number":"DDB1000001","status":"in-progress","date":"2024-03-14T10:00:00+01:00","lines":[],"deliveryAddress":4100000,"reference":null,"poNumber":null,"vatAmount":0,"uuid":null,"total":0}`,
  broken: { id: 'not-a-number', number: 1000001, status: 'teleported', lines: 'none' },
  status: 200,
};
const BY_OPERATION: Readonly<Record<OperationName, FaultBodies>> = {
  listOrders: LIST,
  getOrder: DETAIL,
  updateOrder: DETAIL,
  updateOrderWithPost: DETAIL,
  createOrder: {
    plausible: '{"uuid":"5eed0000-0000-4000-8000-000000000001"}',
    broken: { uuid: 12345 },
    status: 201,
  },
  cancelOrder: { plausible: '{"success":true}', broken: { success: 'yes' }, status: 200 },
};

const HTML =
  '<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>We are back soon</h1></body></html>';

/** Carries out an injected fault on a request for `operation` (undefined: a path with no route). */
export function applyFault(
  effect: FaultEffect,
  operation: OperationName | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const bodies = operation === undefined ? LIST : BY_OPERATION[operation];
  switch (effect.kind) {
    case 'status': {
      const headers =
        effect.retryAfterSeconds === undefined
          ? undefined
          : { 'retry-after': String(effect.retryAfterSeconds) };
      send(res, jsonAnswer(effect.status, { message: `Injected fault: status ${effect.status}` }, headers));
      return;
    }
    case 'drop':
      req.socket.destroy();
      return;
    case 'truncate': {
      const cut = bodies.plausible.slice(0, Math.floor(bodies.plausible.length / 2));
      res.writeHead(bodies.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(bodies.plausible),
      });
      // Close once the partial body is on the wire, so the client sees a short body, not a hang.
      res.write(cut, () => res.socket?.end());
      return;
    }
    case 'nonJson':
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-length': Buffer.byteLength(HTML),
      });
      res.end(HTML);
      return;
    case 'badSchema':
      send(res, jsonAnswer(bodies.status, bodies.broken));
      return;
  }
}
