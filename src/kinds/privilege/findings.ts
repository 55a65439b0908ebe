// Findings about privileges, for drift and plan: an account that asked for
// access in the console and waits for the representative, and a privilege
// still being passed on to the carriers.

import { finding, type Finding } from '../../core/finding.js';
import type { FindingEnv } from '../resource-kind.js';
import type { LivePrivilege } from './kind.js';

/** The codes below (each in docs/troubleshooting.md). */
export const PRIVILEGE_FINDING_CODES = ['PRIVILEGE_REQUESTED', 'PRIVILEGE_PROCESSING'] as const;

/** Findings about one privilege's status. */
export function privilegeFindings(address: string, l: LivePrivilege, env: FindingEnv): Finding[] {
  if (l.role === 'representative') return [];
  if (l.status === 'Waiting') {
    return [finding('PRIVILEGE_REQUESTED', 'warning', address, `${l.account} asked in the console for access to the brand as ${l.role === 'agency' ? 'an agency' : 'an operator'}, and waits for the representative`, env.managed ? 'The manifests list it: rcsctl apply grants it.' : `List it under privileges.${l.role === 'agency' ? 'agencies' : 'operators'} and run rcsctl apply to grant it; rcsctl does not refuse requests.`)];
  }
  if (l.status === 'Processing') {
    return [finding('PRIVILEGE_PROCESSING', 'info', address, `the privilege of ${l.account} is being passed on to the carriers`, 'Wait: it becomes Ok by itself. If it stays Processing, ask the service; rcsctl changes nothing of it meanwhile.')];
  }
  return [];
}
