// The privileges' part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts). The roles and the
// id length are the public OpenAPI document's (docs/decisions.md, "Privileges").

import type { SchemaFragment } from '../manifest-section.js';

/** An account id as the service takes it (max 20). */
export const ACCOUNT_ID_MAX = 20;

const account = (description: string) => ({ description, type: 'string', minLength: 1, maxLength: ACCOUNT_ID_MAX });
const accounts = (description: string) => ({ description, type: 'array', uniqueItems: true, items: account('An account id (max 20).') });

/** Its section and definitions. */
export const schema: SchemaFragment = {
  property: { description: 'Who may operate the brand: its representative, operators and agencies (one per brand).', $ref: '#/definitions/privileges' },
  definitions: {
    privileges: {
      description:
        'Who may operate the brand. An account listed gets access (a grant); an account with access that is not listed is reported, and removed when `prune:` lists privileges (with --allow-delete). A new representative is a delegation, run only with --allow-delegate. rcsctl never removes the account it runs as.',
      type: 'object',
      additionalProperties: false,
      required: ['representative'],
      properties: {
        account: account('The account (a master or manager with a role on the brand) rcsctl reads and changes privileges as: the personId of the service. Changes need the representative. Default: the environment variable RCSCTL_PERSON_ID.'),
        representative: account('The brand representative (Manager in the service): a master of the company. Changing it hands the role over (a delegation, only with --allow-delegate); the previous representative stays an operator.'),
        operators: accounts('Operators (SubManager in the service): other masters and managers of the company. The representative is one already.'),
        agencies: accounts('Agencies (Agency in the service) with an RCS sending contract, by their account id.'),
      },
    },
  },
};
