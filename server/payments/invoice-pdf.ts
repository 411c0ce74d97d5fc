import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { languageIso, type Language } from '#common/languages.ts';
import type { Translator } from '../i18n/i18n.ts';
import { vatIncluded } from './vat.ts';

const require = createRequire(import.meta.url);
// A font from a registry package (DejaVu covers every Latin script of the 11 languages: ł, ø, å…), read from disk, never downloaded.
const FONT_REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

export interface InvoiceInput {
  lang: Language;
  invoiceNumber: string;
  issuedAt: Date;
  orderId: string;
  credits: number;
  amountCents: number;
  currency: string;
  paymentmethod: string;
  /** The buyer's country (VAT at its rate). */
  country: string | null;
  buyer: { name: string; email: string };
  siteName: string;
  company: { name: string; address: string; city: string; country: string; kvk: string; vat_numbers: string[]; tradenames: string[] };
}

/** The invoice of one completed order as a PDF (A4), in the member's language and number formats. */
export function renderInvoicePdf(input: InvoiceInput, translator: Translator): Promise<Buffer> {
  const t = (key: string, params?: Record<string, unknown>) => translator.t(input.lang, `invoice.${key}`, params);
  const iso = languageIso(input.lang);
  const money = (cents: number) => new Intl.NumberFormat(iso, { style: 'currency', currency: input.currency }).format(cents / 100);
  const date = new Intl.DateTimeFormat(iso, { dateStyle: 'long', timeZone: 'UTC' }).format(input.issuedAt);
  const vat = vatIncluded(input.amountCents, input.country);
  const { company } = input;

  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `${t('title')} ${input.invoiceNumber}`, Author: company.name } });
  doc.registerFont('regular', FONT_REGULAR);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  // The seller: the company behind the site, with every registration a buyer may need.
  doc.font('bold').fontSize(16).text(company.name);
  doc.font('regular').fontSize(10).fillColor('#333333');
  doc.text(company.address);
  doc.text(`${company.city}, ${company.country}`);
  if (company.tradenames.length) doc.text(t('tradenames', { names: company.tradenames.join(', ') }));
  doc.text(t('kvk', { number: company.kvk }));
  if (company.vat_numbers.length) doc.text(t('vat_numbers', { numbers: company.vat_numbers.join(', ') }));
  doc.moveDown(2);

  doc.fillColor('#000000').font('bold').fontSize(20).text(t('title'));
  doc.moveDown(0.5);
  doc.font('regular').fontSize(10);
  const facts: [string, string][] = [
    [t('number'), input.invoiceNumber],
    [t('date'), date],
    [t('order'), input.orderId],
    [t('customer'), `${input.buyer.name} <${input.buyer.email}>`],
    [t('payment_method'), translator.t(input.lang, `payment_methods.${input.paymentmethod}`)],
  ];
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font('bold').text(label, left, y, { width: 150 });
    doc.font('regular').text(value, left + 160, y, { width: width - 160 });
  }
  doc.moveDown(2);

  // One line: the bundle, then the VAT it contains and the total.
  const row = (label: string, value: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'bold' : 'regular').text(label, left, y, { width: width - 140 });
    doc.text(value, left + width - 130, y, { width: 130, align: 'right' });
    doc.moveDown(0.4);
  };
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).strokeColor('#999999').stroke();
  doc.moveDown(0.5);
  row(t('line', { count: input.credits, site: input.siteName }), money(vat.netCents));
  row(t('vat_line', { rate: new Intl.NumberFormat(iso, { maximumFractionDigits: 2 }).format(vat.rate) }), money(vat.vatCents));
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).strokeColor('#999999').stroke();
  doc.moveDown(0.5);
  row(t('total'), money(input.amountCents), true);
  doc.moveDown(2);
  doc.font('regular').fontSize(9).fillColor('#555555').text(t('paid_note', { date }));
  doc.end();
  return done;
}
