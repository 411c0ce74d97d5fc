import { MAX_AGE, MIN_AGE, NICHES, type Gender, type Niche } from './constants.ts';

/**
 * White-label look and niche at run time (docs/decisions/038): a site's colours become CSS custom
 * properties over the built Bootstrap theme, its niche picks the default search, the home page's copy
 * and hero image, and its cdn_prefix the origin of built assets and public photos. No rebuild per site.
 */

export const HEX_COLOUR = /^#[0-9a-f]{6}$/;

export interface SiteTheme {
  primary: string;
  secondary: string;
  dark: string;
}

type Rgb = [number, number, number];

function rgb(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/** Bootstrap's mix(): weight is the share of `a`. */
function mix(a: Rgb, b: Rgb, weight: number): Rgb {
  return [0, 1, 2].map((i) => a[i] * weight + b[i] * (1 - weight)) as Rgb;
}

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
const shade = (c: Rgb, amount: number) => mix(BLACK, c, amount);
const tint = (c: Rgb, amount: number) => mix(WHITE, c, amount);

function luminance(c: Rgb): number {
  const [r, g, b] = c.map((v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Bootstrap's color-contrast(): white when it reaches 4.5:1, else whichever of white and black contrasts more. */
export function contrastText(background: string): '#fff' | '#000' {
  const bg = rgb(background);
  const white = contrast(bg, WHITE);
  if (white > 4.5) return '#fff';
  return contrast(bg, BLACK) > white ? '#000' : '#fff';
}

/** The page background of app.scss (`body`), a shade darker than white: text on it needs 4.5:1 too. */
const PAGE_BG: Rgb = [246, 243, 248];

/**
 * A brand colour as the site uses it (WCAG 2.2 AA, docs/decisions/040): darkened in 1 % steps until
 * white text on it and the colour as text on white and on the page background reach 4.5:1. Dark
 * colours stay as they are; the default teal #0f8b8d becomes #0d7c7d, a light orange a burnt one.
 */
export function accessibleShade(colour: string): string {
  const c = rgb(colour);
  for (let step = 0; step <= 100; step++) {
    const candidate = rgb(hex(shade(c, step / 100)));
    if (contrast(candidate, WHITE) >= 4.5 && contrast(candidate, PAGE_BG) >= 4.5) return hex(candidate);
  }
  return '#000000';
}

/** A solid and an outline button in a colour, as Bootstrap's button-variant mixins compute them. */
function buttonVars(name: 'primary' | 'secondary', colour: string): string {
  const c = rgb(colour);
  const text = contrastText(colour);
  const light = text === '#fff';
  const hoverBg = hex(light ? shade(c, 0.15) : tint(c, 0.15));
  const hoverBorder = hex(light ? shade(c, 0.2) : tint(c, 0.1));
  const activeBg = hex(light ? shade(c, 0.2) : tint(c, 0.2));
  const activeBorder = hex(light ? shade(c, 0.25) : tint(c, 0.1));
  const focus = mix(rgb(text), c, 0.15).map(Math.round).join(',');
  return `.btn-${name}{--bs-btn-color:${text};--bs-btn-bg:${colour};--bs-btn-border-color:${colour};`
    + `--bs-btn-hover-color:${text};--bs-btn-hover-bg:${hoverBg};--bs-btn-hover-border-color:${hoverBorder};--bs-btn-focus-shadow-rgb:${focus};`
    + `--bs-btn-active-color:${text};--bs-btn-active-bg:${activeBg};--bs-btn-active-border-color:${activeBorder};`
    + `--bs-btn-disabled-color:${text};--bs-btn-disabled-bg:${colour};--bs-btn-disabled-border-color:${colour}}`
    + `.btn-outline-${name}{--bs-btn-color:${colour};--bs-btn-border-color:${colour};--bs-btn-hover-color:${text};--bs-btn-hover-bg:${colour};`
    + `--bs-btn-hover-border-color:${colour};--bs-btn-focus-shadow-rgb:${c.join(',')};--bs-btn-active-color:${text};--bs-btn-active-bg:${colour};`
    + `--bs-btn-active-border-color:${colour};--bs-btn-disabled-color:${colour};--bs-btn-disabled-border-color:${colour}}`;
}

/**
 * The site's colours as CSS over the built look: the colour tokens (`--amora-color-*`, app/styles/_tokens.scss,
 * docs/decisions/086), which Bootstrap's theme variables and every rule drawn from the brand read, and the button and
 * component variables Bootstrap compiles to fixed values. Each colour is first taken to its accessible shade, so text,
 * links and buttons in it reach WCAG AA contrast. Only validated #rrggbb values reach this (sitePatchSchema and the
 * database's check). Served as the site's stylesheet, /site.css (server/settings/site-stylesheet.ts, docs/decisions/052).
 */
export function siteThemeCss(brand: SiteTheme): string {
  const theme = { primary: accessibleShade(brand.primary), secondary: accessibleShade(brand.secondary), dark: accessibleShade(brand.dark) };
  const p = rgb(theme.primary);
  const s = rgb(theme.secondary);
  const d = rgb(theme.dark);
  const linkHover = shade(p, 0.2);
  return `:root{--amora-color-primary:${theme.primary};--amora-color-primary-rgb:${p.join(',')};`
    + `--amora-color-primary-strong:${hex(shade(p, 0.6))};--amora-color-primary-soft:${hex(tint(p, 0.8))};--amora-color-primary-line:${hex(tint(p, 0.6))};`
    + `--amora-color-primary-hover:${hex(linkHover)};--amora-color-primary-hover-rgb:${linkHover.map(Math.round).join(',')};`
    + `--amora-color-secondary:${theme.secondary};--amora-color-secondary-rgb:${s.join(',')};--amora-color-dark:${theme.dark};--amora-color-dark-rgb:${d.join(',')}}`
    + buttonVars('primary', theme.primary) + buttonVars('secondary', theme.secondary)
    + `.nav-pills{--bs-nav-pills-link-active-bg:${theme.primary}}`
    + `.dropdown-menu{--bs-dropdown-link-active-bg:${theme.primary}}.list-group{--bs-list-group-active-bg:${theme.primary};--bs-list-group-active-border-color:${theme.primary}}`
    + `.pagination{--bs-pagination-active-bg:${theme.primary};--bs-pagination-active-border-color:${theme.primary}}`
    + `.form-check-input:checked{background-color:${theme.primary};border-color:${theme.primary}}`
    + `.form-control:focus,.form-select:focus,.form-check-input:focus{border-color:${hex(tint(p, 0.5))};box-shadow:0 0 0 .25rem rgba(${p.join(',')},.25)}`;
}

export function nicheOf(niche: number): Niche {
  return NICHES[niche - 1] ?? NICHES[0];
}

export interface NicheSearchDefaults {
  gender?: Gender;
  min_age: number;
  max_age: number;
}

/**
 * A fresh search on a niche site (no parameters yet): who the site is about. The gay site shows men,
 * the women's niches women, the age niches their ages; the general and BDSM sites show everyone.
 */
export const NICHE_SEARCH: Record<Niche, NicheSearchDefaults> = {
  default: { min_age: MIN_AGE, max_age: MAX_AGE },
  she: { gender: 'female', min_age: MIN_AGE, max_age: MAX_AGE },
  bdsm: { min_age: MIN_AGE, max_age: MAX_AGE },
  bbw: { gender: 'female', min_age: MIN_AGE, max_age: MAX_AGE },
  gilf: { gender: 'female', min_age: 55, max_age: MAX_AGE },
  milf: { gender: 'female', min_age: 35, max_age: 55 },
  gay: { gender: 'male', min_age: MIN_AGE, max_age: MAX_AGE },
};

export function nicheSearchDefaults(niche: number): NicheSearchDefaults {
  return NICHE_SEARCH[nicheOf(niche)];
}

/**
 * Where the sign-up form starts on a niche site: on the gay site nearly every member is a man looking for men,
 * so gender and "looking for" start there (the member can change both). The other niches have no such
 * answer to assume, and start empty.
 */
export function nicheSignupDefaults(niche: number): { gender?: Gender; sexuality?: 'gay' } {
  return nicheOf(niche) === 'gay' ? { gender: 'male', sexuality: 'gay' } : {};
}

/** The home page's hero illustration per niche, shipped in public/hero/. */
export function nicheHeroImage(niche: number): string {
  return `/hero/${nicheOf(niche)}.svg`;
}

/**
 * A URL on the site's CDN origin when one is set (cdn_prefix without a trailing slash), else the
 * path as it is: this server serves it.
 */
export function cdnUrl(cdnPrefix: string, path: string): string {
  return cdnPrefix ? cdnPrefix.replace(/\/+$/, '') + path : path;
}
