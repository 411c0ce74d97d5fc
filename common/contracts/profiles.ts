import { z } from 'zod';
import { profileSchema } from '../profile.ts';
import { signupProfileSchema } from '../schemas.ts';
import { contracts } from './contract.ts';
import { idParam, ownProfileSchema, profileDetailSchema, profileSummarySchema } from './shapes.ts';

export const profileContracts = contracts({
  profile: {
    method: 'get', path: '/api/profile.php', summary: 'A member\'s profile, or the member\'s own',
    description: 'With ?id= the profile as this viewer may see it (visitors too); without id the signed-in member\'s editable profile.',
    query: z.object({ id: idParam.optional() }),
    responses: {
      200: [
        { description: 'With id: the profile.', schema: z.strictObject({ profile: profileDetailSchema }) },
        { description: 'Without id: the member\'s own profile.', schema: z.strictObject({ profile: ownProfileSchema }) },
      ],
    },
  },
  update: {
    method: 'put', path: '/api/profile.php', auth: 'member', summary: 'Save the profile form',
    description: 'Everything is checked; a bad field changes nothing.',
    body: profileSchema(),
    responses: { 200: { description: 'The saved profile.', schema: z.strictObject({ profile: ownProfileSchema }) } },
  },
  signupFields: {
    method: 'put', path: '/api/signup-profile.php', auth: 'member', summary: 'The fields the sign-up steps set',
    description: 'region is a code from /api/regions.php of the (new or current) country.',
    body: signupProfileSchema,
    responses: { 200: { description: 'The member\'s summary.', schema: z.strictObject({ profile: profileSummarySchema }) } },
  },
});
