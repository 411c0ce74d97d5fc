// `npm run staff:token -- --staff <e-mail> --name <what it is for> --scope <role> [--scope …]`: an API token for
// automation, made for the named staff member (audited) with the given roles as scopes (within their own). Printed
// once; only its hash is kept. Tokens are also made, listed and revoked on the console's account page.
import { parseArgs } from 'node:util';
import { STAFF_ROLES, type StaffRoleName } from '../db/schema.ts';
import { failure, withStaff } from './cli-services.ts';

const USAGE = `Usage: npm run staff:token -- --staff <e-mail> --name <name> --scope <${STAFF_ROLES.join('|')}> [--scope …]`;

let options: { staff?: string; name?: string; scope?: string[] };
try {
  options = parseArgs({ options: { staff: { type: 'string' }, name: { type: 'string' }, scope: { type: 'string', multiple: true } } }).values;
} catch {
  options = {};
}
const scopes = (options.scope ?? []).flatMap((s) => s.split(','));
if (!options.staff || !options.name || !scopes.length || !scopes.every((s) => (STAFF_ROLES as readonly string[]).includes(s))) {
  console.error(USAGE);
  process.exit(2);
}
const { staff: email, name } = options;
try {
  const { id, token } = await withStaff(email, (services, staff) => services.staff.createToken(staff, { name, scopes: scopes as StaffRoleName[] }));
  console.log(`API token ${id} (${[...new Set(scopes)].join(', ')}), shown this once only:\n${token}`);
} catch (error) {
  console.error(failure('Not created', error));
  process.exitCode = 1;
}
