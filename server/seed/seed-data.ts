/** Demo data for a fresh embedded database: names, places and packages that make the demo site feel real. */
export const FEMALE_NAMES = [
  'Anna', 'Sophie', 'Emma', 'Julia', 'Lisa', 'Laura', 'Mia', 'Sara', 'Eva', 'Lotte', 'Fenna', 'Noor', 'Lena', 'Hannah',
  'Clara', 'Giulia', 'Chiara', 'Camille', 'Chloé', 'Lucía', 'Carmen', 'Zofia', 'Maja', 'Freja', 'Ida', 'Aino', 'Ella',
  'Ingrid', 'Nora', 'Astrid', 'Elin', 'Olivia', 'Grace', 'Charlotte', 'Amélie', 'Valentina', 'Marta', 'Helena', 'Iris', 'Vera',
];
export const MALE_NAMES = [
  'Daan', 'Lucas', 'Sem', 'Finn', 'Milan', 'Jesse', 'Thomas', 'Max', 'Jonas', 'Felix', 'Paul', 'Leon', 'Marco', 'Luca',
  'Matteo', 'Hugo', 'Louis', 'Pablo', 'Javier', 'Jakub', 'Piotr', 'Mads', 'Emil', 'Oliver', 'Eetu', 'Mikko', 'Lars',
  'Henrik', 'Erik', 'Oscar', 'James', 'Jack', 'Noah', 'Samuel', 'Antoine', 'Diego', 'Tomasz', 'Viktor', 'Ruben', 'Bram',
];
export const ABOUT_TEXTS = [
  'Curious, warm and always up for a good conversation. Tell me about your favourite place in the world.',
  'I love long walks, good coffee and people who can make me laugh.',
  'Weekend traveller, weekday bookworm. Looking for someone to share the little things with.',
  'Honest, direct and a little bit shy at first. Say hi and we will see where it goes.',
  'Music is my first love; dancing in the kitchen counts as exercise, right?',
  'New in town and keen to meet new people. Cooking for two is more fun than cooking for one.',
  'I enjoy nature, photography and a glass of wine at sunset.',
  'Sporty during the week, lazy on Sundays. Looking for chemistry, not perfection.',
];

/** Credit bundles and their prices in cents per currency. */
export const PACKAGES: { credits: number; popular: boolean; prices: Record<string, number> }[] = [
  { credits: 50, popular: false, prices: { EUR: 995, GBP: 895, USD: 1099, CAD: 1499, AUD: 1699, NZD: 1799, CHF: 995, PLN: 4299, DKK: 7495, NOK: 11900, SEK: 11900 } },
  { credits: 150, popular: true, prices: { EUR: 2495, GBP: 2195, USD: 2699, CAD: 3699, AUD: 4199, NZD: 4499, CHF: 2495, PLN: 10799, DKK: 18595, NOK: 28900, SEK: 28900 } },
  { credits: 400, popular: false, prices: { EUR: 5495, GBP: 4795, USD: 5999, CAD: 7999, AUD: 8999, NZD: 9699, CHF: 5495, PLN: 23799, DKK: 40995, NOK: 63900, SEK: 62900 } },
  { credits: 1000, popular: false, prices: { EUR: 9995, GBP: 8695, USD: 10999, CAD: 14999, AUD: 16499, NZD: 17999, CHF: 9995, PLN: 42999, DKK: 74595, NOK: 115900, SEK: 114900 } },
];

/**
 * The demo site's discount codes (percentages in basis points). WELCOME10 is the welcome code: it applies
 * by itself to a member's first purchase once the 4-hour time bonus is over.
 */
export const DISCOUNT_CODES: {
  code: string; kind: 'code' | 'welcome'; percentBp: number; minimums?: Record<string, number>; country?: string; expired?: boolean;
}[] = [
  { code: 'WELCOME10', kind: 'welcome', percentBp: 1000 },
  // From the second bundle up, in every currency the site sells in.
  { code: 'SPRING20', kind: 'code', percentBp: 2000, minimums: { EUR: 2000, GBP: 1800, USD: 2200, CAD: 3000, AUD: 3400, NZD: 3600, CHF: 2000, PLN: 8600, DKK: 14900, NOK: 23000, SEK: 23000 } },
  { code: 'HOLLAND15', kind: 'code', percentBp: 1500, country: 'NL' },
  { code: 'SUMMER30', kind: 'code', percentBp: 3000, expired: true },
];
