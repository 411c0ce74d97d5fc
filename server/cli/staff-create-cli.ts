// `npm run staff:create -- --email <e-mail> --name <name> [--role admin] [--role …]`: a staff account, the first admin
// included. Prints the password, the TOTP secret and the recovery codes once: none of them is kept in the clear.
import { parseArgs } from 'node:util';
import { STAFF_ROLES, type StaffRoleName } from '../db/schema.ts';
import { isAppError } from '../infra/errors.ts';
import type { SystemActor } from '../staff/staff-actor.ts';
import { runWhenStarted, withServices, type Command } from './cli-services.ts';

/** Whoever may run commands on the server; the audit log writes it as `system`. */
const COMMAND_LINE: SystemActor = { kind: 'system', job: 'staff:create' };

const USAGE = `Usage: npm run staff:create -- --email <e-mail> --name <name> [--role <${STAFF_ROLES.join('|')}>]… (default: admin)`;

export const staffCreateCommand: Command = async (args, io) => {
  let options: { email?: string; name?: string; role?: string[] };
  try {
    options = parseArgs({ args, options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string', multiple: true } } }).values;
  } catch {
    options = {};
  }
  const roles = (options.role ?? ['admin']).flatMap((r) => r.split(','));
  if (!options.email || !options.name || !roles.every((r) => (STAFF_ROLES as readonly string[]).includes(r))) {
    io.err(USAGE);
    return 2;
  }
  const { email, name } = options;
  try {
    const made = await withServices((services) => services.staff.create(COMMAND_LINE, { email, name, roles: roles as StaffRoleName[] }), io.env);
    io.out([
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
    return 0;
  } catch (error) {
    if (isAppError(error) && error.code === 'email_taken') io.err(`Not created: a staff member with the e-mail address ${email.trim().toLowerCase()} exists already.`);
    else if (isAppError(error) && error.code === 'invalid_input') io.err(`Not created: that is not a valid e-mail address or name.\n${USAGE}`);
    else io.err(isAppError(error) ? `Not created: ${error.code}` : String(error instanceof Error ? error.stack ?? error.message : error));
    return 1;
  }
};

await runWhenStarted(import.meta.url, staffCreateCommand);
