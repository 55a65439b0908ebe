// The management envelope, checked and unwrapped: `{code, status, desc, result}`,
// plus `pagination` and `links` on lists (the service reference, Common response
// envelope). An empty list answered 204 or with code 60004 is an empty page
// (docs/decisions.md, "Envelopes, errors and empty lists").

import { NO_CONTENT_CODE } from '../contract/codes.js';
import { ResponseShapeError, type OperationLabel } from './errors.js';
import { arr, expectShape, num, obj, str, typeName, type Check, type ShapeFailure } from './shape.js';
import type { ApiResponse } from './transport.js';

function failer(res: ApiResponse, label?: OperationLabel): ShapeFailure {
  return (field, expected, actual) => {
    throw new ResponseShapeError(res.site, field === '' ? 'body' : field, expected, actual, label);
  };
}

function isNoContent(res: ApiResponse): boolean {
  if (res.status === 204 || res.body === undefined) return true;
  const body = res.body as Record<string, unknown> | null;
  return typeof body === 'object' && body !== null && String(body.code) === NO_CONTENT_CODE;
}

/** The `result` array of a success envelope, each item checked with `item`. */
export function results<T>(res: ApiResponse, item: Check, label?: OperationLabel): T[] {
  if (isNoContent(res)) return [];
  const fail = failer(res, label);
  const env = expectShape<{ result: unknown[] }>(res.body, obj({ code: str, result: arr(item) }), '', fail);
  return env.result as T[];
}

/** The single object of a success envelope's `result`, checked with `item`. */
export function single<T>(res: ApiResponse, item: Check, label?: OperationLabel): T {
  const list = results<T>(res, item, label);
  const first = list[0];
  if (first === undefined) return failer(res, label)('result', 'an array of one object', 'an empty array');
  return first;
}

/** One page of a list endpoint. */
export interface Page<T> {
  items: T[];
  total: number;
}

/** A list envelope: items checked with `item`, and pagination.total. Links are not read (see paginate.ts). */
export function page<T>(res: ApiResponse, item: Check, label?: OperationLabel): Page<T> {
  if (isNoContent(res)) return { items: [], total: 0 };
  const fail = failer(res, label);
  const env = expectShape<{ result: T[]; pagination: { total: number } }>(
    res.body,
    obj({ code: str, result: arr(item), pagination: obj({ total: num }) }),
    '',
    fail,
  );
  return { items: env.result, total: env.pagination.total };
}

/** Check a body that is not enveloped (POST /token, agency answers). */
export function unwrapped<T>(res: ApiResponse, check: Check, label?: OperationLabel): T {
  if (res.body === undefined) return failer(res, label)('body', 'a JSON object', typeName(res.body));
  return expectShape<T>(res.body, check, '', failer(res, label));
}
