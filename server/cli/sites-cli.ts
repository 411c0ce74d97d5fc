// `npm run sites:set -- <domain> [--add] [--name …] [--niche 1-7] [--primary #rrggbb] [--secondary #rrggbb] [--dark #rrggbb]
//   [--logo <path or https URL>] [--cdn-prefix <https origin or ''>] [--index-title …] [--description …] [--domain-language nl_NL]
//   [--entry-warning on|off] [--member-resell on|off]`
// Changes a site's white-label settings and whether its members meet those of its company's other sites that resell
// (decision 051) (or adds a site for a further domain with --add). Every running
// instance serves the change within a second (the site cache's shared version stamp, decision 016).
import { parseArgs } from 'node:util';
import { NICHES } from '#common/constants.ts';
import { isAppError } from '../infra/errors.ts';
import { runWhenStarted, withServices, type Command } from './cli-services.ts';
import { normalizeHost, type SitePatch } from '../settings/settings.service.ts';

const USAGE = `Usage: npm run sites:set -- <domain> [--add] [--name <name>] [--niche <1-7: ${NICHES.join(', ')}>]
  [--primary <#rrggbb>] [--secondary <#rrggbb>] [--dark <#rrggbb>] [--logo <path or https URL, '' for the name>]
  [--cdn-prefix <https://cdn.example.com, '' for this server>] [--index-title <title>] [--description <text>] [--domain-language <nl_NL>]
  [--entry-warning <on|off: the adults-only warning for new visitors>]
  [--member-resell <on|off: its members meet those of the company's other sites that resell too>]`;

const options = {
  add: { type: 'boolean' }, name: { type: 'string' }, niche: { type: 'string' }, primary: { type: 'string' }, secondary: { type: 'string' },
  dark: { type: 'string' }, logo: { type: 'string' }, 'cdn-prefix': { type: 'string' }, 'index-title': { type: 'string' },
  description: { type: 'string' }, 'domain-language': { type: 'string' }, 'entry-warning': { type: 'string' },
  'member-resell': { type: 'string' },
} as const;

/** An on|off flag: true, false, undefined when not given, or 'bad' for anything else (the command ends with the usage). */
function onOff(value: string | undefined): boolean | undefined | 'bad' {
  if (value === undefined) return undefined;
  if (value !== 'on' && value !== 'off') return 'bad';
  return value === 'on';
}

export const sitesCommand: Command = async (args, io) => {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const domain = normalizeHost(positionals[0]);
  const warning = onOff(values['entry-warning']);
  const resell = onOff(values['member-resell']);
  if (!domain || positionals.length !== 1 || warning === 'bad' || resell === 'bad') {
    io.err(USAGE);
    return 2;
  }
  const patch: SitePatch = {
    name: values.name, niche: values.niche === undefined ? undefined : Number(values.niche), themePrimary: values.primary,
    themeSecondary: values.secondary, themeDark: values.dark, logoUrl: values.logo, cdnPrefix: values['cdn-prefix'],
    indexTitle: values['index-title'], description: values.description, domainLanguage: values['domain-language'],
    enableSiteEntryPopup: warning, memberResell: resell,
  };
  try {
    const site = await withServices(async (services) => {
      if (values.add) return services.settings.addSite({ ...patch, domain });
      const current = await services.settings.siteForHost(domain);
      if (current.domain !== domain) throw new Error(`No site has the domain ${domain} (add it with --add).`);
      return services.settings.updateSite(current.id, patch);
    }, io.env);
    io.out(`${values.add ? 'Added' : 'Updated'} ${site.domain}: ${site.name}, niche ${site.niche} (${NICHES[site.niche - 1]}), colours ${site.themePrimary} ${site.themeSecondary} ${site.themeDark}, logo ${site.logoUrl || '(the name)'}, cdn ${site.cdnPrefix || '(this server)'}, entry warning ${site.enableSiteEntryPopup ? 'on' : 'off'}, member resell ${site.memberResell ? 'on' : 'off'}.`);
    return 0;
  } catch (error) {
    io.err(isAppError(error) ? `Not changed: ${error.code} ${JSON.stringify(error.details)}` : (error as Error).message);
    return 1;
  }
};

await runWhenStarted(import.meta.url, sitesCommand);
