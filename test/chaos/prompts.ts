// What the person asks for: every kind of work the offline model plans (server/runtime/models/
// offline-flows.ts), in varied words so the router sees distinct requests (made-up names carry most
// of each request's weight, as a brand or a client name would). Drawn from a seeded source.
import type { Rng } from './rng.ts';

export type Kind = 'posters' | 'image' | 'quick-image' | 'audio' | '3d' | 'video' | 'image-to-video';
export type Request = { kind: Kind; via: 'sendMessage' | 'createTask'; text: string; title: string };

const ADJ = ['amber', 'velvet', 'copper', 'misty', 'lunar', 'saffron', 'cobalt', 'rustic', 'neon', 'pastel', 'gilded', 'frosted', 'crimson', 'ivory', 'emerald', 'smoky', 'sunlit', 'stormy', 'paper', 'woolen'];
const NOUN = ['heron', 'lighthouse', 'teapot', 'bicycle', 'otter', 'violin', 'cactus', 'lantern', 'falcon', 'sailboat', 'typewriter', 'hedgehog', 'windmill', 'accordion', 'tortoise', 'greenhouse', 'gramophone', 'kingfisher', 'zeppelin', 'walrus', 'telescope', 'carousel', 'pelican', 'crane'];
const PLACE = ['Lisbon', 'Kyoto', 'Oaxaca', 'Tromsø', 'Marrakesh', 'Valparaíso', 'Tbilisi', 'Hobart', 'Ghent', 'Cusco', 'Zanzibar', 'Reykjavík', 'Porto', 'Hanoi', 'Bergen', 'Tallinn'];
const BUSINESS = ['bakery', 'bookshop', 'cycling club', 'tea house', 'ceramics studio', 'jazz bar', 'surf school', 'flower market', 'chess café', 'climbing gym', 'vinyl store', 'night market'];
const NUM = ['two', 'three', 'four', 'five'];
const DE_NUM: Record<string, string> = { two: 'zwei', three: 'drei', four: 'vier', five: 'fünf' };
const SYL = ['ka', 'lo', 'vir', 'mes', 'tan', 'qui', 'dor', 'bel', 'zu', 'ran', 'fe', 'nox', 'pil', 'sar', 'wen', 'gro', 'hal', 'mi', 'tep', 'yor', 'cas', 'ul', 'bri', 'vem'];

export const CONTEXT_NOTES = [
  'the audience is mostly families with small children',
  'keep the palette warm, with a lot of ochre',
  'our logo has a small star in the corner, please leave room for the star',
  'the text should stay readable from across a street',
  'the result will be shown on a tall vertical screen in a train station',
  'the brand voice is calm and a little playful',
];

export const REVISIONS = ['make it at night instead', 'make it at night instead, with rain', 'make it at night instead, under a full moon'];

/** A made-up name (a brand, a client, a product): the words that make a request its own. */
function coin(rng: Rng): string {
  const w = Array.from({ length: rng.int(3, 4) }, () => rng.pick(SYL)).join('');
  return w[0]!.toUpperCase() + w.slice(1);
}

export function nextRequest(rng: Rng): Request {
  const r = rng();
  const kind: Kind = r < 0.17 ? 'posters' : r < 0.34 ? 'image' : r < 0.42 ? 'quick-image' : r < 0.56 ? 'audio' : r < 0.7 ? '3d' : r < 0.86 ? 'video' : 'image-to-video';
  const a = rng.pick(ADJ);
  const noun = rng.pick(NOUN);
  const place = rng.pick(PLACE);
  const biz = rng.pick(BUSINESS);
  // Three made-up words: the client, the brand and the occasion.
  const [c1, c2, c3] = [coin(rng), coin(rng), coin(rng)];
  const who = rng.pick([`${c1} ${c2}`, `${c1} and ${c2}`, `the ${c1} ${c2} people`]);
  let text: string;
  let title: string;
  switch (kind) {
    case 'posters': {
      const count = rng.pick(NUM);
      text = rng.pick([
        `a new job: ${c1} ${c2} needs ${count} posters for ${c3}, ${a} tones, ${biz} in ${place}`,
        `another client: ${count} retro posters for ${c1} ${c2}, the ${c3} ${biz} festival`,
        `neue Anfrage: erstelle ${DE_NUM[count]} Plakate für ${c1} ${c2} und ${c3}, ${place}`,
      ]);
      title = `${count} posters: ${c1} ${c2} ${c3}`;
      break;
    }
    case 'image':
      text = rng.pick([
        `${c1} ${c2} wants a new illustration of a ${a} ${noun} for ${c3}`,
        `another picture, for ${who}: ${noun} at dawn, ${c3} style`,
        `a new image of the ${c1} ${c2} shopfront in ${place}, ${c3} lettering`,
      ]);
      title = `image: ${c1} ${c2} ${c3}`;
      break;
    case 'quick-image':
      text = `a quick logo for ${c1} ${c2} ${c3}, a new client`;
      title = `quick logo: ${c1} ${c2} ${c3}`;
      break;
    case 'audio':
      text = rng.pick([
        `${c1} ${c2} needs a new jingle for ${c3}`,
        `another sound loop, ${a}, for ${who} at ${c3}`,
        `a new piece of background music for ${c1} ${c2}'s ${c3} evening`,
      ]);
      title = `jingle: ${c1} ${c2} ${c3}`;
      break;
    case '3d':
      text = rng.pick([`a new 3D model of the ${c1} ${c2} mascot for ${c3}`, `another 3D ${noun} for a game, ${c1} ${c2} ${c3}`]);
      title = `3D model: ${c1} ${c2} ${c3}`;
      break;
    case 'video':
      text = rng.pick([
        `a new short video for ${c1} ${c2} about ${c3}, with a storyboard`,
        `another trailer, ${c1} ${c2} for ${c3} in ${place}`,
        `a new clip of the ${c1} ${c2} ${c3} parade`,
      ]);
      title = `video: ${c1} ${c2} ${c3}`;
      break;
    case 'image-to-video':
      text = `a new one: turn a photo of ${c1} ${c2} into a short video for ${c3}`;
      title = `photo into a short video: ${c1} ${c2} ${c3}`;
      break;
  }
  // Two more made-up words (a reference a client would quote) keep the template's words a minority.
  text = `${text} — ${coin(rng)} ${coin(rng)}`;
  return { kind, via: rng.chance(0.15) ? 'createTask' : 'sendMessage', text, title };
}
