/**
 * Standard VAT rates (basis points) on electronically supplied services, charged at the buyer's country
 * rate (EU one-stop shop; UK, Norway, Switzerland, Australia and New Zealand collect theirs from
 * foreign sellers too). Bundle prices include it. Countries without such a tax have none.
 */
const VAT_BASIS_POINTS: Record<string, number> = {
  NL: 2100, BE: 2100, DE: 1900, AT: 2000, FR: 2000, IT: 2200, ES: 2100, IE: 2300, FI: 2550, PL: 2300, DK: 2500, SE: 2500,
  GB: 2000, NO: 2500, CH: 810, AU: 1000, NZ: 1500,
};

/** The VAT contained in a gross amount (cents), for the buyer's country: the rate and the tax, rounded to the cent. */
export function vatIncluded(grossCents: number, country: string | null | undefined): { rate: number; vatCents: number; netCents: number } {
  const bp = (country && VAT_BASIS_POINTS[country]) || 0;
  const net = Math.round((grossCents * 10_000) / (10_000 + bp));
  return { rate: bp / 100, vatCents: grossCents - net, netCents: net };
}
