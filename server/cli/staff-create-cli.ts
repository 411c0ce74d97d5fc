// `npm run staff:create -- --email <e-mail> --name <name> [--role admin] [--role …]`: a staff account, the first admin
// included. Prints the password, the TOTP secret and the recovery codes once: none of them is kept in the clear.
import { parseArgs } from 'node:util';
import { STAFF_ROLES, type StaffRoleName } from '../db/schema.ts';
import { isAppError } from '../infra/errors.ts';
import type { SystemActor } from '../staff/staff-actor.ts';
import { withServices } from './cli-services.ts';

/** Whoever may run commands on the server; the audit log writes it as `system`. */
const COMMAND_LINE: SystemActor = { kind: 'system', job: 'staff:create' };

const USAGE = `Usage: npm run staff:create -- --email <e-mail> --name <name> [--role <${STAFF_ROLES.join('|')}>]… (default: admin)`;

let options: { email?: string; name?: string; role?: string[] };
try {
  options = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string', multiple: true } } }).values;
} catch {
  options = {};
}
const roles = (options.role ?? ['admin']).flatMap((r) => r.split(','));
if (!options.email || !options.name || !roles.every((r) => (STAFF_ROLES as readonly string[]).includes(r))) {
  console.error(USAGE);
  process.exit(2);
}
const { email, name } = options;
try {
  const made = await withServices((services) => services.staff.create(COMMAND_LINE, { email, name, roles: roles as StaffRoleName[] }));
  console.log([
    `Staff member ${made.id} created: ${made.email} (${[...new Set(roles)].join(', ')}).`,
    'Shown this once only; keep them somewhere safe:',
    '',
    `  password:    ${made.password}`,
    `  TOTP secret: ${made.totpSecret}`,
    `  TOTP link:   ${made.otpauthUri}`,
    '',
    'Add the secret or the link to an authenticator app. Recovery codes, each usable once when the app is lost:',
    ...made.recoveryCodes.map((code) => `  ${code}`),
  ].join('\n'));
} catch (error) {
  if (isAppError(error) && error.code === 'email_taken') console.error(`Not created: a staff member with the e-mail address ${email.trim().toLowerCase()} exists already.`);
  else if (isAppError(error) && error.code === 'invalid_input') console.error(`Not created: that is not a valid e-mail address or name.\n${USAGE}`);
  else console.error(isAppError(error) ? `Not created: ${error.code}` : error);
  process.exitCode = 1;
}
