/**
 * Pictures for the demo data, drawn as SVG at seed time: badges, stands, cards, tickets, plushies,
 * shelves. Only shapes and colours, never text: the machine may have no CJK font, and libvips
 * would draw every character as a box. Each picture is fixed by its spec, so a re-seed draws the
 * same ones.
 */
import { seededRandom } from './seeded-random.ts';

export type PictureShape =
  | 'badge'
  | 'stand'
  | 'shikishi'
  | 'ticket'
  | 'card'
  | 'plush'
  | 'charm'
  | 'instax'
  | 'photo'
  | 'shelf'
  | 'avatar';

export interface PictureSpec {
  shape: PictureShape;
  /** Picks the colours; the works each have their own palette (see PALETTES). */
  palette: number;
  /** Varies the details (positions of stars, sizes) between pictures of one shape. */
  variant: number;
  /** Covered with a watermark pattern (previews of design drawings that are redeemed in the app). */
  watermark?: boolean;
}

/** Width and height of each shape at scale 1, in pixels: different aspect ratios on purpose. */
const SIZES: Readonly<Record<PictureShape, readonly [number, number]>> = {
  badge: [900, 900],
  stand: [720, 1080],
  shikishi: [960, 1080],
  ticket: [480, 1200],
  card: [660, 1020],
  plush: [1000, 1000],
  charm: [800, 1000],
  instax: [720, 1140],
  photo: [1200, 900],
  shelf: [1280, 720],
  avatar: [400, 400],
};

/** [background, main, accent, light] per palette. */
type Palette = readonly [string, string, string, string];
const FIRST_PALETTE: Palette = ['#1d2b64', '#6a5acd', '#00d2ff', '#e0e7ff'];
const PALETTES: readonly Palette[] = [
  FIRST_PALETTE, // deep blue and violet
  ['#ff7e29', '#1a1a1a', '#ffd166', '#fff3e0'], // orange and black
  ['#0b3d91', '#27ae60', '#56ccf2', '#e8f8f5'], // blue and green
  ['#ffafcc', '#2d6a4f', '#ffc8dd', '#fff0f6'], // pink and green
  ['#f4a261', '#2a9d8f', '#e9c46a', '#fdf6e3'], // gold and teal
  ['#3c1053', '#ad5389', '#f9d423', '#f5e6ff'], // purple and gold
  ['#0f2027', '#ff6fb5', '#7f7fd5', '#fde2f3'], // night and pink
  ['#1e3c72', '#e63946', '#a8dadc', '#f1faee'], // blue and red
];

function star(cx: number, cy: number, r: number, fill: string, opacity = 1): string {
  const points: string[] = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 === 0 ? r : r * 0.45;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(
      `${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`,
    );
  }
  return `<polygon points="${points.join(' ')}" fill="${fill}" opacity="${opacity}"/>`;
}

function heart(cx: number, cy: number, size: number, fill: string): string {
  const s = size / 2;
  return `<path d="M${cx},${cy + s} C${cx - 2 * s},${cy - 0.2 * s} ${cx - s},${cy - 1.6 * s} ${cx},${cy - 0.6 * s} C${cx + s},${cy - 1.6 * s} ${cx + 2 * s},${cy - 0.2 * s} ${cx},${cy + s} Z" fill="${fill}"/>`;
}

function sprinkles(
  random: () => number,
  w: number,
  h: number,
  color: string,
  count: number,
): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const x = random() * w;
    const y = random() * h;
    const r = (0.01 + random() * 0.025) * Math.min(w, h);
    out +=
      i % 3 === 0
        ? star(x, y, r, color, 0.8)
        : `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${(r / 2).toFixed(1)}" fill="${color}" opacity="0.6"/>`;
  }
  return out;
}

/** A stylized face: round head, hair fringe, eyes. Characters without words. */
function face(cx: number, cy: number, r: number, hair: string, eyes: string): string {
  return (
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#ffe8d6"/>` +
    `<path d="M${cx - r},${cy} A${r},${r} 0 0 1 ${cx + r},${cy} L${cx + r * 0.7},${cy - r * 0.15} L${cx + r * 0.35},${cy + r * 0.05} L${cx},${cy - r * 0.2} L${cx - r * 0.4},${cy + r * 0.05} L${cx - r * 0.75},${cy - r * 0.1} Z" fill="${hair}"/>` +
    `<ellipse cx="${cx - r * 0.35}" cy="${cy + r * 0.25}" rx="${r * 0.12}" ry="${r * 0.17}" fill="${eyes}"/>` +
    `<ellipse cx="${cx + r * 0.35}" cy="${cy + r * 0.25}" rx="${r * 0.12}" ry="${r * 0.17}" fill="${eyes}"/>` +
    `<circle cx="${cx - r * 0.31}" cy="${cy + r * 0.2}" r="${r * 0.04}" fill="#fff"/>` +
    `<circle cx="${cx + r * 0.39}" cy="${cy + r * 0.2}" r="${r * 0.04}" fill="#fff"/>` +
    `<path d="M${cx - r * 0.12},${cy + r * 0.6} Q${cx},${cy + r * 0.7} ${cx + r * 0.12},${cy + r * 0.6}" stroke="#c0392b" stroke-width="${r * 0.04}" fill="none" stroke-linecap="round"/>`
  );
}

function drawing(spec: PictureSpec, w: number, h: number): string {
  const [bg, main, accent, light] = PALETTES[spec.palette % PALETTES.length] ?? FIRST_PALETTE;
  const random = seededRandom(spec.palette * 7919 + spec.variant * 104729 + spec.shape.length);
  const m = Math.min(w, h);
  const defs =
    `<defs>` +
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${bg}"/><stop offset="1" stop-color="${main}"/></linearGradient>` +
    `<linearGradient id="holo" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff9a9e"/><stop offset="0.25" stop-color="#fad0c4"/><stop offset="0.5" stop-color="#a1c4fd"/><stop offset="0.75" stop-color="#c2e9fb"/><stop offset="1" stop-color="#d4fc79"/></linearGradient>` +
    `<radialGradient id="shine" cx="0.35" cy="0.3" r="0.7"><stop offset="0" stop-color="#fff" stop-opacity="0.7"/><stop offset="0.5" stop-color="#fff" stop-opacity="0.1"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>` +
    `</defs>`;
  const backdrop = `<rect width="${w}" height="${h}" fill="url(#bg)"/>`;

  switch (spec.shape) {
    case 'badge': {
      const r = m * 0.4;
      return (
        defs +
        `<rect width="${w}" height="${h}" fill="${light}"/>` +
        sprinkles(random, w, h, accent, 14) +
        `<circle cx="${w / 2 + m * 0.02}" cy="${h / 2 + m * 0.03}" r="${r}" fill="#000" opacity="0.18"/>` +
        `<circle cx="${w / 2}" cy="${h / 2}" r="${r}" fill="url(#bg)"/>` +
        `<circle cx="${w / 2}" cy="${h / 2}" r="${r * 0.92}" fill="none" stroke="${accent}" stroke-width="${m * 0.012}"/>` +
        face(w / 2, h / 2 + r * 0.1, r * 0.55, main, bg) +
        star(w / 2 + r * 0.6, h / 2 - r * 0.55, r * 0.16, accent) +
        `<circle cx="${w / 2}" cy="${h / 2}" r="${r}" fill="url(#shine)"/>`
      );
    }
    case 'stand': {
      const bodyW = w * 0.62;
      const bodyH = h * 0.66;
      const x = (w - bodyW) / 2;
      const y = h * 0.08;
      return (
        defs +
        `<rect width="${w}" height="${h}" fill="${light}"/>` +
        sprinkles(random, w, h * 0.7, accent, 10) +
        `<rect x="${x}" y="${y}" width="${bodyW}" height="${bodyH}" rx="${bodyW * 0.18}" fill="url(#bg)" opacity="0.92"/>` +
        face(w / 2, y + bodyH * 0.35, bodyW * 0.3, main, bg) +
        `<path d="M${w / 2 - bodyW * 0.3},${y + bodyH * 0.95} L${w / 2},${y + bodyH * 0.55} L${w / 2 + bodyW * 0.3},${y + bodyH * 0.95} Z" fill="${accent}"/>` +
        `<rect x="${w * 0.47}" y="${y + bodyH}" width="${w * 0.06}" height="${h * 0.08}" fill="${accent}" opacity="0.8"/>` +
        `<ellipse cx="${w / 2}" cy="${h * 0.86}" rx="${w * 0.36}" ry="${h * 0.05}" fill="${main}" opacity="0.85"/>` +
        `<ellipse cx="${w / 2}" cy="${h * 0.85}" rx="${w * 0.3}" ry="${h * 0.03}" fill="#fff" opacity="0.35"/>` +
        `<rect x="${x}" y="${y}" width="${bodyW}" height="${bodyH}" rx="${bodyW * 0.18}" fill="url(#shine)"/>`
      );
    }
    case 'shikishi': {
      const pad = m * 0.07;
      return (
        defs +
        `<rect width="${w}" height="${h}" fill="#c8a165"/>` +
        `<rect x="${pad}" y="${pad}" width="${w - 2 * pad}" height="${h - 2 * pad}" fill="${light}"/>` +
        `<circle cx="${w * 0.5}" cy="${h * 0.42}" r="${m * 0.3}" fill="${accent}" opacity="0.5"/>` +
        face(w * 0.5, h * 0.45, m * 0.22, main, bg) +
        `<path d="M${w * 0.2},${h * 0.8} Q${w * 0.5},${h * 0.7} ${w * 0.8},${h * 0.82}" stroke="${bg}" stroke-width="${m * 0.015}" fill="none" stroke-linecap="round"/>` +
        heart(w * 0.78, h * 0.2, m * 0.08, main)
      );
    }
    case 'ticket': {
      let stripes = '';
      for (let i = 0; i < 7; i++) {
        stripes += `<rect x="0" y="${(h / 7) * i}" width="${w}" height="${h / 14}" fill="#fff" opacity="${(0.05 + random() * 0.15).toFixed(2)}"/>`;
      }
      return (
        defs +
        `<rect width="${w}" height="${h}" fill="url(#holo)"/>` +
        stripes +
        `<rect x="${w * 0.08}" y="${h * 0.06}" width="${w * 0.84}" height="${h * 0.62}" rx="${w * 0.04}" fill="url(#bg)"/>` +
        face(w / 2, h * 0.34, w * 0.28, main, bg) +
        sprinkles(random, w, h, '#ffffff', 18) +
        `<line x1="${w * 0.05}" y1="${h * 0.78}" x2="${w * 0.95}" y2="${h * 0.78}" stroke="${bg}" stroke-width="4" stroke-dasharray="12 10"/>` +
        `<rect x="${w * 0.2}" y="${h * 0.84}" width="${w * 0.6}" height="${h * 0.08}" fill="${bg}" opacity="0.7"/>`
      );
    }
    case 'card': {
      return (
        defs +
        `<rect width="${w}" height="${h}" fill="${light}"/>` +
        `<rect x="${w * 0.05}" y="${h * 0.04}" width="${w * 0.9}" height="${h * 0.92}" rx="${w * 0.06}" fill="url(#bg)"/>` +
        sprinkles(random, w, h, accent, 16) +
        face(w / 2, h * 0.45, w * 0.3, main, bg) +
        `<rect x="${w * 0.05}" y="${h * 0.04}" width="${w * 0.9}" height="${h * 0.92}" rx="${w * 0.06}" fill="url(#shine)"/>` +
        `<rect x="${w * 0.12}" y="${h * 0.82}" width="${w * 0.76}" height="${h * 0.07}" rx="${h * 0.035}" fill="${light}" opacity="0.85"/>`
      );
    }
    case 'plush': {
      const cx = w / 2;
      return (
        defs +
        backdrop +
        sprinkles(random, w, h, light, 20) +
        `<ellipse cx="${cx}" cy="${h * 0.72}" rx="${m * 0.26}" ry="${m * 0.2}" fill="${accent}"/>` +
        `<circle cx="${cx - m * 0.2}" cy="${h * 0.86}" r="${m * 0.08}" fill="${accent}"/>` +
        `<circle cx="${cx + m * 0.2}" cy="${h * 0.86}" r="${m * 0.08}" fill="${accent}"/>` +
        face(cx, h * 0.42, m * 0.26, main, bg) +
        `<circle cx="${cx - m * 0.16}" cy="${h * 0.52}" r="${m * 0.03}" fill="#ff8fab" opacity="0.7"/>` +
        `<circle cx="${cx + m * 0.16}" cy="${h * 0.52}" r="${m * 0.03}" fill="#ff8fab" opacity="0.7"/>`
      );
    }
    case 'charm': {
      return (
        defs +
        `<rect width="${w}" height="${h}" fill="${light}"/>` +
        `<circle cx="${w / 2}" cy="${h * 0.1}" r="${m * 0.06}" fill="none" stroke="#b0b0b0" stroke-width="${m * 0.018}"/>` +
        `<line x1="${w / 2}" y1="${h * 0.16}" x2="${w / 2}" y2="${h * 0.26}" stroke="#b0b0b0" stroke-width="${m * 0.012}"/>` +
        heart(w / 2, h * 0.58, m * 0.5, main) +
        face(w / 2, h * 0.5, m * 0.17, bg, bg) +
        star(w * 0.72, h * 0.32, m * 0.07, accent) +
        sprinkles(random, w, h, accent, 8)
      );
    }
    case 'instax': {
      const pad = w * 0.06;
      const photoH = h * 0.72;
      return (
        defs +
        `<rect width="${w}" height="${h}" fill="#fafafa"/>` +
        `<rect x="${pad}" y="${pad}" width="${w - 2 * pad}" height="${photoH}" fill="url(#bg)"/>` +
        sprinkles(random, w, photoH, light, 14) +
        face(w / 2, pad + photoH * 0.5, w * 0.25, main, bg) +
        `<rect x="${pad}" y="${pad}" width="${w - 2 * pad}" height="${photoH}" fill="url(#shine)"/>` +
        heart(w * 0.82, h * 0.88, w * 0.06, main)
      );
    }
    case 'photo': {
      let items = '';
      for (let i = 0; i < 5; i++) {
        const x = w * (0.1 + i * 0.17);
        const size = m * (0.12 + random() * 0.06);
        items +=
          i % 2 === 0
            ? `<circle cx="${x + size}" cy="${h * 0.55}" r="${size}" fill="${i % 4 === 0 ? accent : main}"/><circle cx="${x + size}" cy="${h * 0.55}" r="${size}" fill="url(#shine)"/>`
            : `<rect x="${x}" y="${h * 0.55 - size * 1.4}" width="${size * 1.6}" height="${size * 2.4}" rx="${size * 0.2}" fill="${accent}" opacity="0.9"/>`;
      }
      return (
        defs +
        `<rect width="${w}" height="${h}" fill="${light}"/>` +
        `<rect y="${h * 0.78}" width="${w}" height="${h * 0.22}" fill="#c9a27e"/>` +
        `<rect width="${w}" height="${h * 0.78}" fill="url(#bg)" opacity="0.25"/>` +
        items +
        sprinkles(random, w, h * 0.5, main, 10)
      );
    }
    case 'shelf': {
      let boxes = '';
      for (let row = 0; row < 3; row++) {
        const y = h * (0.08 + row * 0.31);
        for (let col = 0; col < 6; col++) {
          const x = w * (0.05 + col * 0.155);
          const bw = w * 0.12;
          const bh = h * (0.14 + random() * 0.1);
          const color = [main, accent, light, bg][(row + col) % 4];
          boxes +=
            col % 2 === 0
              ? `<circle cx="${x + bw / 2}" cy="${y + h * 0.26 - bw / 2}" r="${bw / 2}" fill="${color}"/>`
              : `<rect x="${x}" y="${y + h * 0.26 - bh}" width="${bw}" height="${bh}" rx="${bw * 0.1}" fill="${color}"/>`;
        }
        boxes += `<rect x="${w * 0.03}" y="${y + h * 0.26}" width="${w * 0.94}" height="${h * 0.025}" fill="#f5f5f5" opacity="0.9"/>`;
      }
      return (
        defs +
        backdrop +
        `<rect x="${w * 0.02}" y="${h * 0.03}" width="${w * 0.96}" height="${h * 0.94}" fill="none" stroke="#fff" stroke-width="${m * 0.015}" opacity="0.7"/>` +
        boxes +
        sprinkles(random, w, h, '#fff', 12)
      );
    }
    case 'avatar': {
      return (
        defs +
        backdrop +
        face(w / 2, h * 0.55, m * 0.36, main, bg) +
        sprinkles(random, w, h, light, 6)
      );
    }
  }
}

/**
 * A watermark over the whole picture: a tilted lattice of rings and diamonds in translucent
 * white with a dark edge, visible on light and dark drawings alike and not croppable away.
 */
function watermark(w: number, h: number): string {
  const cell = Math.round(Math.min(w, h) / 4);
  const r = cell * 0.22;
  return (
    `<defs><pattern id="watermark" width="${cell}" height="${cell}" patternUnits="userSpaceOnUse" patternTransform="rotate(-30)">` +
    `<circle cx="${cell / 2}" cy="${cell / 2}" r="${r}" fill="none" stroke="#fff" stroke-opacity="0.55" stroke-width="${r * 0.28}"/>` +
    `<circle cx="${cell / 2}" cy="${cell / 2}" r="${r * 1.16}" fill="none" stroke="#000" stroke-opacity="0.18" stroke-width="${r * 0.06}"/>` +
    `<path d="M0,${-r * 0.5} L${r * 0.5},0 L0,${r * 0.5} L${-r * 0.5},0 Z" fill="#fff" fill-opacity="0.45"/>` +
    `<line x1="0" y1="${cell}" x2="${cell}" y2="0" stroke="#fff" stroke-opacity="0.3" stroke-width="${r * 0.08}"/>` +
    `</pattern></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#watermark)"/>`
  );
}

/** The picture as an SVG document of its own size times `scale` (the tests draw small ones). */
export function drawDemoPicture(
  spec: PictureSpec,
  scale = 1,
): { svg: string; width: number; height: number } {
  const [baseWidth, baseHeight] = SIZES[spec.shape];
  const width = Math.max(16, Math.round(baseWidth * scale));
  const height = Math.max(16, Math.round(baseHeight * scale));
  // Drawn on the full-size canvas and scaled by the viewBox, so a small picture looks the same.
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${baseWidth} ${baseHeight}">` +
    drawing(spec, baseWidth, baseHeight) +
    (spec.watermark ? watermark(baseWidth, baseHeight) : '') +
    `</svg>`;
  return { svg, width, height };
}
