/**
 * The demo profiles' pictures: flat, warm illustrations of a person (docs/decisions/086), one per profile and plainly
 * drawn, so that nobody takes them for photos of real people. Face, skin tone, hair style and colour, eyes, smile,
 * beard, glasses, jewellery, clothes and background are each picked from the seed's random source, so a fresh demo
 * site always shows the same people.
 */

type Gender = 'male' | 'female';
type Rand = () => number;

/** A small deterministic generator (mulberry32): the demo site's values, and one portrait's details. */
export function seededRandom(seed: number): Rand {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)];

/** Skin tones from light to deep, each with the shade of its shadows. */
const SKINS = [
  ['#fde3cf', '#eab99a'], ['#f6d0b1', '#dba784'], ['#eebf98', '#cf9670'], ['#e0a979', '#bd8056'],
  ['#c98b5b', '#a46a40'], ['#a86b43', '#85502f'], ['#8a5334', '#6a3c23'], ['#6b3f27', '#52301c'],
] as const;
const HAIR = ['#1f1a17', '#2e211a', '#4a2f1f', '#6b4226', '#8c5a32', '#a0522d', '#c68a4a', '#d9b27c', '#e6c98f'] as const;
const GREY_HAIR = ['#b9b4ae', '#d6d2cc', '#8e8983'] as const;
/** Backgrounds: a light and a deeper tone of one warm colour family, and the colour of the shapes on them. */
const GROUNDS = [
  ['#ffd9c2', '#f59e7b', '#fff1e6'], ['#ffe7a8', '#f4b942', '#fff6d9'], ['#d7eedb', '#7cc49a', '#f0faf2'],
  ['#d4e9f7', '#6fa8dc', '#eef6fc'], ['#ead9f5', '#b48ad6', '#f7effc'], ['#ffd6e0', '#ef7a9c', '#fff0f4'],
  ['#cdeeea', '#4fb3a9', '#ecfaf8'], ['#f3e0cc', '#c98f5e', '#fbf2e9'], ['#e0e4ff', '#8592e8', '#f2f3ff'],
] as const;
const CLOTHES = ['#264653', '#2a9d8f', '#e76f51', '#f4a261', '#6d597a', '#b56576', '#355070', '#3a7d44', '#f2e8cf', '#1d3557', '#e9c46a', '#9d4edd', '#ffffff', '#3d3d3d'] as const;
const IRIS = ['#3b2a20', '#4e342e', '#2f4f4f', '#3b5b7a', '#556b2f', '#1f1f1f'] as const;

const FEMALE_HAIR = ['long', 'wavy', 'bob', 'bun', 'curly', 'ponytail', 'pixie', 'long', 'wavy'] as const;
const MALE_HAIR = ['crop', 'side', 'quiff', 'buzz', 'curly', 'crop', 'side', 'bald', 'long'] as const;
type HairStyle = (typeof FEMALE_HAIR)[number] | (typeof MALE_HAIR)[number];

function darker(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(v * (1 - amount)));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

function background(r: Rand, [light, deep, shape]: readonly string[]): string {
  const parts = [
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${deep}"/></linearGradient></defs>`,
    '<rect width="500" height="600" fill="url(#bg)"/>',
  ];
  const motif = Math.floor(r() * 4);
  if (motif === 0) parts.push(`<circle cx="${200 + Math.floor(r() * 100)}" cy="230" r="185" fill="${shape}" opacity=".55"/>`);
  if (motif === 1) parts.push(`<path d="M90 600 V230 A160 160 0 0 1 410 230 V600 Z" fill="${shape}" opacity=".5"/>`);
  if (motif === 2) {
    for (let y = 40; y < 600; y += 48) for (let x = 30 + ((y / 48) % 2) * 24; x < 500; x += 48) parts.push(`<circle cx="${x}" cy="${y}" r="5" fill="${shape}" opacity=".6"/>`);
  }
  if (motif === 3) {
    const side = r() < 0.5 ? 70 : 430;
    for (let i = 0; i < 5; i++) {
      const angle = -70 + i * 35;
      parts.push(`<ellipse cx="${side}" cy="${470 - i * 10}" rx="22" ry="70" fill="${darker(deep, 0.15)}" opacity=".55" transform="rotate(${angle} ${side} 560)"/>`);
    }
  }
  // A soft glow behind the head, whatever the motif.
  parts.push('<ellipse cx="250" cy="230" rx="175" ry="185" fill="#fff" opacity=".14"/>');
  return parts.join('');
}

/** Hair that falls behind the head and shoulders (drawn before them). */
function backHair(style: HairStyle, hair: string, r: Rand): string {
  switch (style) {
    case 'long': return `<path d="M150 235 C138 150 190 108 250 108 C312 108 362 150 350 235 L372 470 C330 492 170 492 128 470 Z" fill="${hair}"/>`;
    case 'wavy': return `<path d="M150 235 C136 150 190 106 250 106 C312 106 364 150 350 235 C372 280 344 320 368 360 C390 400 350 430 372 470 C330 495 170 495 128 470 C150 430 110 400 132 360 C156 320 128 280 150 235 Z" fill="${hair}"/>`;
    case 'bob': return `<path d="M150 240 C138 150 190 110 250 110 C312 110 362 150 350 240 L358 352 C340 372 310 372 300 360 L200 360 C190 372 160 372 142 352 Z" fill="${hair}"/>`;
    case 'curly': {
      const puffs: string[] = [];
      for (let i = 0; i < 16; i++) {
        const a = (Math.PI * 2 * i) / 16;
        const cx = 250 + Math.cos(a) * (118 + r() * 14);
        const cy = 238 + Math.sin(a) * (122 + r() * 12) * (Math.sin(a) > 0.6 ? 0.75 : 1);
        puffs.push(`<circle cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" r="${(38 + r() * 12).toFixed(0)}" fill="${hair}"/>`);
      }
      return `<ellipse cx="250" cy="232" rx="128" ry="132" fill="${hair}"/>${puffs.join('')}`;
    }
    case 'ponytail': return `<path d="M330 200 C390 220 400 330 370 420 C360 450 330 440 340 400 C360 320 340 260 318 230 Z" fill="${hair}"/>`;
    default: return '';
  }
}

/** Hair over the top of the head (drawn after the face). */
function frontHair(style: HairStyle, hair: string, gender: Gender, r: Rand): string {
  const flip = r() < 0.5;
  const mirror = flip ? ' transform="translate(500 0) scale(-1 1)"' : '';
  switch (style) {
    case 'long': case 'wavy': case 'ponytail':
      return `<path d="M160 262 C146 168 196 124 252 124 C312 124 356 170 340 262 C330 212 306 186 276 176 C250 204 206 214 168 222 Z" fill="${hair}"${mirror}/>`;
    case 'bob':
      return `<path d="M160 250 C148 166 196 124 250 124 C306 124 352 166 340 250 C326 214 312 204 300 200 L200 200 C186 204 172 214 160 250 Z" fill="${hair}"/>`;
    case 'bun':
      return `<circle cx="250" cy="112" r="40" fill="${hair}"/><path d="M164 240 C156 166 200 130 250 130 C302 130 346 166 336 240 C324 196 296 176 250 174 C204 176 176 196 164 240 Z" fill="${hair}"/>`;
    case 'curly':
      return `<path d="M168 228 C170 170 206 142 250 142 C296 142 330 170 332 228 C318 196 290 184 250 190 C210 184 182 196 168 228 Z" fill="${hair}"/>`;
    case 'pixie':
      return `<path d="M162 250 C148 160 200 122 256 124 C318 128 352 176 338 248 C334 214 318 194 298 186 C266 206 214 200 180 190 C170 206 164 226 162 250 Z" fill="${hair}"${mirror}/>`;
    case 'crop':
      return `<path d="M164 236 C154 158 200 126 250 126 C302 126 348 158 336 236 C332 204 318 184 300 176 C266 184 232 184 200 176 C182 184 168 204 164 236 Z" fill="${hair}"/>`;
    case 'side':
      return `<path d="M164 238 C150 156 204 120 258 122 C316 126 352 166 336 238 C330 206 320 190 304 180 C270 170 222 176 196 184 C178 196 168 214 164 238 Z" fill="${hair}"${mirror}/><path d="M212 170 C236 150 270 146 300 160" stroke="${darker(hair, 0.25)}" stroke-width="3" fill="none" opacity=".6"${mirror}/>`;
    case 'quiff':
      return `<path d="M164 236 C152 160 196 104 262 100 C320 98 356 150 336 236 C332 204 318 186 302 178 C266 180 226 182 198 178 C180 188 168 206 164 236 Z" fill="${hair}"/>`;
    case 'buzz':
      return `<path d="M166 228 C162 164 204 136 250 136 C298 136 340 164 334 228 C326 196 300 176 250 174 C202 176 174 196 166 228 Z" fill="${hair}" opacity=".85"/>`;
    default:
      // Bald: the light on the crown.
      if (style === 'bald' || gender === 'male') return `<path d="M174 210 C186 168 214 152 250 150 C288 152 316 168 326 210 C310 186 290 178 250 178 C210 178 190 186 174 210 Z" fill="#fff" opacity=".18"/>`;
      return '';
  }
}

function clothes(r: Rand, gender: Gender, skin: readonly string[]): string {
  const cloth = pick(r, CLOTHES);
  const edge = darker(cloth, 0.2);
  const shoulders = gender === 'male'
    ? 'M40 600 C48 478 140 428 250 422 C360 428 452 478 460 600 Z'
    : 'M70 600 C78 488 150 436 250 430 C350 436 422 488 430 600 Z';
  const parts = [`<path d="${shoulders}" fill="${cloth}"/>`];
  if (r() < 0.3) {
    // Stripes across the top, inside its outline.
    parts.unshift(`<defs><clipPath id="top"><path d="${shoulders}"/></clipPath></defs>`);
    const stripe = darker(cloth, 0.18);
    for (let y = 450; y < 600; y += 26) parts.push(`<rect x="0" y="${y}" width="500" height="10" fill="${stripe}" clip-path="url(#top)"/>`);
  }
  const neckline = pick(r, gender === 'male' ? ['crew', 'vee', 'collar', 'hoodie', 'collar'] : ['crew', 'vee', 'scoop', 'turtleneck', 'collar']);
  if (neckline === 'crew') parts.push(`<path d="M206 428 C222 452 278 452 294 428" stroke="${edge}" stroke-width="8" fill="none" stroke-linecap="round"/>`);
  if (neckline === 'vee') parts.push(`<path d="M212 426 L250 488 L288 426 Z" fill="${skin[0]}"/><path d="M212 426 L250 488 L288 426" stroke="${edge}" stroke-width="6" fill="none" stroke-linejoin="round"/>`);
  if (neckline === 'scoop') parts.push(`<path d="M196 432 C206 486 294 486 304 432 Z" fill="${skin[0]}"/>`);
  if (neckline === 'turtleneck') parts.push(`<path d="M208 392 C230 404 270 404 292 392 L300 444 C270 458 230 458 200 444 Z" fill="${edge}"/>`);
  if (neckline === 'collar') {
    const collar = r() < 0.5 ? '#ffffff' : darker(cloth, 0.1);
    parts.push(`<path d="M212 426 L250 476 L288 426 Z" fill="${skin[0]}"/><path d="M206 420 L250 472 L226 488 L196 440 Z M294 420 L250 472 L274 488 L304 440 Z" fill="${collar}" stroke="${edge}" stroke-width="2"/>`);
  }
  if (neckline === 'hoodie') {
    parts.push(`<path d="M176 448 C190 410 310 410 324 448 C300 470 200 470 176 448 Z" fill="${edge}"/>`);
    parts.push(`<path d="M232 462 L228 520 M268 462 L272 520" stroke="#f5f5f5" stroke-width="4" stroke-linecap="round"/>`);
  }
  return parts.join('');
}

/** The neck, with the shadow the chin casts: under the clothes' neckline. */
function neck([tone, shadow]: readonly string[]): string {
  return `<path d="M218 320 L218 436 C236 450 264 450 282 436 L282 320 Z" fill="${tone}"/>`
    + `<path d="M218 340 C236 372 264 372 282 340 L282 372 C262 388 238 388 218 372 Z" fill="${shadow}" opacity=".7"/>`;
}

function face(r: Rand, gender: Gender, skin: readonly string[], hair: string, age: number): string {
  const [tone, shadow] = skin;
  const jaw = gender === 'male'
    ? 'M166 240 C166 170 204 146 250 146 C296 146 334 170 334 240 C334 304 312 346 250 354 C188 346 166 304 166 240 Z'
    : 'M170 240 C170 168 206 146 250 146 C294 146 330 168 330 240 C330 302 300 348 250 354 C200 348 170 302 170 240 Z';
  const brow = darker(hair, 0.2);
  const iris = pick(r, IRIS);
  const parts = [
    // Ears.
    `<ellipse cx="168" cy="256" rx="15" ry="22" fill="${shadow}"/><ellipse cx="332" cy="256" rx="15" ry="22" fill="${shadow}"/>`,
    `<path d="${jaw}" fill="${tone}"/>`,
  ];
  // Eyes: open with a light in them, or smiling shut.
  const eyeY = 256;
  if (r() < 0.78) {
    for (const x of [216, 284]) {
      parts.push(`<ellipse cx="${x}" cy="${eyeY}" rx="11" ry="${gender === 'female' ? 12 : 10}" fill="#fff"/>`);
      parts.push(`<circle cx="${x + 1}" cy="${eyeY + 1}" r="7.5" fill="${iris}"/><circle cx="${x + 1}" cy="${eyeY + 1}" r="3.5" fill="#111"/><circle cx="${x + 4}" cy="${eyeY - 2}" r="2.2" fill="#fff"/>`);
      if (gender === 'female') parts.push(`<path d="M${x - 13} ${eyeY - 4} Q${x} ${eyeY - 16} ${x + 14} ${eyeY - 6}" stroke="#2a1d1a" stroke-width="3" fill="none" stroke-linecap="round"/>`);
    }
  } else {
    for (const x of [216, 284]) parts.push(`<path d="M${x - 12} ${eyeY + 2} Q${x} ${eyeY - 10} ${x + 12} ${eyeY + 2}" stroke="#2a1d1a" stroke-width="4" fill="none" stroke-linecap="round"/>`);
  }
  // Brows: thicker for men, a little raised for some.
  const lift = Math.floor(r() * 6);
  for (const [x, dir] of [[216, -1], [284, 1]] as const) {
    parts.push(`<path d="M${x - 18 * dir} ${eyeY - 22 + (dir === -1 ? lift : 0)} Q${x} ${eyeY - 32} ${x + 18 * dir} ${eyeY - 24}" stroke="${brow}" stroke-width="${gender === 'male' ? 7 : 5}" fill="none" stroke-linecap="round"/>`);
  }
  // Nose and cheeks.
  parts.push(`<path d="M252 268 C246 284 240 294 248 298 C252 300 258 299 262 296" stroke="${shadow}" stroke-width="4" fill="none" stroke-linecap="round"/>`);
  parts.push(`<ellipse cx="200" cy="298" rx="17" ry="10" fill="#ff6f6f" opacity=".18"/><ellipse cx="300" cy="298" rx="17" ry="10" fill="#ff6f6f" opacity=".18"/>`);
  if (age >= 45) parts.push(`<path d="M186 272 Q192 280 200 280 M314 272 Q308 280 300 280" stroke="${shadow}" stroke-width="2.5" fill="none" opacity=".8"/>`);
  // Facial hair, for some men.
  if (gender === 'male') {
    const beard = pick(r, ['none', 'none', 'stubble', 'beard', 'moustache', 'beard']);
    if (beard === 'stubble') parts.push(`<path d="M176 282 C184 332 214 352 250 354 C286 352 316 332 324 282 C312 312 286 328 250 330 C214 328 188 312 176 282 Z" fill="${hair}" opacity=".28"/>`);
    if (beard === 'beard') parts.push(`<path d="M170 262 C172 336 208 368 250 370 C292 368 328 336 330 262 C318 300 296 318 272 318 C262 310 238 310 228 318 C204 318 182 300 170 262 Z" fill="${hair}"/>`);
    if (beard === 'beard' || beard === 'moustache') parts.push(`<path d="M222 314 C232 302 268 302 278 314 C266 312 234 312 222 314 Z" fill="${hair}" stroke="${hair}" stroke-width="6" stroke-linejoin="round"/>`);
  }
  // The smile: closed or open.
  if (r() < 0.55) parts.push(`<path d="M226 318 Q250 338 274 318" stroke="#8a3b3b" stroke-width="5" fill="none" stroke-linecap="round"/>`);
  else parts.push(`<path d="M224 314 Q250 346 276 314 Z" fill="#7a2e3a"/><path d="M229 316 Q250 324 271 316 L269 320 Q250 328 231 320 Z" fill="#fff"/>`);
  if (gender === 'female' && r() < 0.5) parts.push(`<path d="M228 318 Q250 330 272 318" stroke="#c0566b" stroke-width="3" fill="none" opacity=".6" stroke-linecap="round"/>`);
  return parts.join('');
}

function accessories(r: Rand, gender: Gender): string {
  const parts: string[] = [];
  if (r() < 0.22) {
    const frame = pick(r, ['#1f1f1f', '#6b3e26', '#8c1c3a', '#2c4a7a']);
    const round = r() < 0.5;
    for (const x of [216, 284]) {
      parts.push(round
        ? `<circle cx="${x}" cy="256" r="25" fill="#fff" fill-opacity=".12" stroke="${frame}" stroke-width="5"/>`
        : `<rect x="${x - 27}" y="236" width="54" height="40" rx="10" fill="#fff" fill-opacity=".12" stroke="${frame}" stroke-width="5"/>`);
    }
    parts.push(`<path d="M${round ? 241 : 243} 254 Q250 246 ${round ? 259 : 257} 254" stroke="${frame}" stroke-width="5" fill="none"/>`);
  }
  if (gender === 'female' && r() < 0.5) parts.push('<circle cx="166" cy="284" r="6" fill="#e9c46a"/><circle cx="334" cy="284" r="6" fill="#e9c46a"/>');
  if (gender === 'female' && r() < 0.3) parts.push('<path d="M214 432 Q250 470 286 432" stroke="#e9c46a" stroke-width="3" fill="none"/><circle cx="250" cy="456" r="6" fill="#e9c46a"/>');
  return parts.join('');
}

/**
 * A demo profile's portrait, 500 × 600 (the photos' 5:6), as SVG. It takes four values from the seed's generator, as
 * the silhouettes it replaced did, so the rest of the demo (names, countries, ages) stays as it was; the details come
 * from a generator of its own, started from those four.
 */
export function portraitSvg(rand: () => number, gender: Gender, age = 30): string {
  const seed = [rand(), rand(), rand(), rand()].reduce((s, v) => Math.imul(s ^ Math.floor(v * 4294967296), 0x9e3779b1) >>> 0, 0x2545f491);
  const r = seededRandom(seed);
  const skin = pick(r, SKINS);
  const style = pick(r, gender === 'female' ? FEMALE_HAIR : MALE_HAIR);
  const grey = age >= 55 ? r() < 0.7 : age >= 45 && r() < 0.3;
  const hair = grey ? pick(r, GREY_HAIR) : r() < 0.05 ? pick(r, ['#b5546e', '#4f6fa8', '#7a4fa8']) : pick(r, HAIR);
  return '<svg xmlns="http://www.w3.org/2000/svg" width="500" height="600" viewBox="0 0 500 600">'
    + background(r, pick(r, GROUNDS))
    // The person a little larger than drawn, the face in the frame's upper half: cards lay names over the lower part.
    + '<g transform="translate(250 190) scale(1.14) translate(-250 -190)">'
    + backHair(style, hair, r)
    + neck(skin)
    + clothes(r, gender, skin)
    + face(r, gender, skin, hair, age)
    + frontHair(style, hair, gender, r)
    + accessories(r, gender)
    + '</g></svg>';
}
