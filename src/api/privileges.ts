// Who may operate a brand (the public OpenAPI document's /corp/{personId}/brand/{brandId}/privilege;
// docs/decisions.md, "Privileges"): the list, a grant of operators (masters,
// managers, agencies), the representative handed over, and a removal. Every
// route names the calling account (`personId`): the list takes the
// representative or an operator, the changes the representative only.

import { ERRORS } from '../contract/codes.js';
import type { PrivilegeInfo, RegPrivilegeInfo } from '../contract/wire.js';
import { results } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { API_PREFIX, seg } from './resource.js';
import { any, obj, str } from './shape.js';
import type { BrandRef, Transport } from './transport.js';

/** Client methods for a brand's privileges. */
export interface PrivilegesApi {
  /** Everyone with a privilege on the brand (the representative, operators, agencies, and requests waiting), as `personId` reads it. */
  list(brand: BrandRef, personId: string): Promise<PrivilegeInfo[]>;
  /** Grant access (SubManager or Agency; a Waiting request named is approved); 64348 answered to a retry counts as success. */
  grant(brand: BrandRef, personId: string, privileges: RegPrivilegeInfo[]): Promise<void>;
  /** Hand the representative role to master `to`; the caller becomes an operator. */
  delegate(brand: BrandRef, personId: string, to: string): Promise<void>;
  /** Remove account `id`'s access (never the representative's); 64347 answered to a retry counts as success. */
  revoke(brand: BrandRef, personId: string, id: string): Promise<void>;
}

// docs/decisions.md, "Privileges": PrivilegeInfo, checked for what rcsctl reads.
const info = obj({ privilegeType: str, id: str, status: str });

function path(personId: string, brand: BrandRef, rest = ''): string {
  return `${API_PREFIX}/corp/${seg(personId)}/brand/${seg(brand.id)}/privilege${rest}`;
}

/** The privilege methods over `transport`. */
export function privilegesApi(transport: Transport): PrivilegesApi {
  return {
    async list(brand, personId) {
      const label: OperationLabel = { operation: 'list', entity: `privileges of ${brand.id}` };
      const res = await transport.send({ method: 'GET', path: path(personId, brand), brand, label });
      return results<PrivilegeInfo>(res, info, label);
    },
    async grant(brand, personId, privileges) {
      const label: OperationLabel = { operation: 'grant', entity: `access to ${brand.id} for ${privileges.map((p) => p.id).join(', ')}` };
      const res = await transport.send({ method: 'POST', path: path(personId, brand), brand, label, json: { regPrivileges: privileges }, successAfterRetry: [ERRORS.privilegeAlreadyRegistered.code] });
      if (res.acceptedCode === undefined) results(res, any, label);
    },
    async delegate(brand, personId, to) {
      const label: OperationLabel = { operation: 'delegate', entity: `the representative role of ${brand.id} to ${to}` };
      const res = await transport.send({ method: 'PUT', path: path(personId, brand), brand, label, json: { regPrivilege: { privilegeType: 'Manager', id: to } } });
      results(res, any, label);
    },
    async revoke(brand, personId, id) {
      const label: OperationLabel = { operation: 'remove', entity: `access of ${id} to ${brand.id}` };
      const res = await transport.send({ method: 'DELETE', path: path(personId, brand, `/${seg(id)}`), brand, label, successAfterRetry: [ERRORS.privilegeNotRegistered.code] });
      if (res.acceptedCode === undefined) results(res, any, label);
    },
  };
}
