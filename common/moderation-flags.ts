/** The kinds of automatic flag (decision 058): what brought a member to the moderators' members queue. */
export const FLAG_KINDS = ['off_site_contact', 'money_request', 'repeated_text', 'mass_messaging', 'many_reports'] as const;
export type FlagKind = (typeof FLAG_KINDS)[number];
