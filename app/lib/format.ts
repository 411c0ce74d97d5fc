import { languageIso, type Language } from '#common/languages.ts';

export function formatMoney(cents: number, currency: string, lang: Language): string {
  return new Intl.NumberFormat(languageIso(lang), { style: 'currency', currency }).format(cents / 100);
}

export function formatTime(iso: string, lang: Language): string {
  const d = new Date(iso);
  const sameDay = new Date().toDateString() === d.toDateString();
  return new Intl.DateTimeFormat(languageIso(lang), sameDay ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(d);
}

export function countryName(code: string, lang: Language): string {
  try {
    return new Intl.DisplayNames([languageIso(lang)], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
