import { z } from 'zod';
import { STAFF_ROLES } from './staff.ts';

/** The console sign-in's first step: e-mail address and password (their rules are the use case's: one answer for all). */
export const consolePasswordSchema = z.object({
  email: z.string({ error: 'console.errors.email_required' }).trim().min(1, 'console.errors.email_required').max(254, 'console.errors.login_failed'),
  password: z.string({ error: 'console.errors.password_required' }).min(1, 'console.errors.password_required').max(1000, 'console.errors.login_failed'),
});

/** The second step: the signed challenge of the first, and a six-digit code or a recovery code. */
export const consoleCodeSchema = z.object({
  challenge: z.string().min(1).max(500),
  code: z.string({ error: 'console.errors.code_required' }).trim().min(1, 'console.errors.code_required').max(64, 'console.errors.login_failed'),
});

/** A new API token: what it is for, and the roles it acts with. */
export const consoleTokenSchema = z.object({
  name: z.string({ error: 'console.errors.token_name_required' }).trim().min(1, 'console.errors.token_name_required').max(100, 'console.errors.token_name_required'),
  scopes: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.enum(STAFF_ROLES)).min(1, 'console.errors.scopes_required')),
});
