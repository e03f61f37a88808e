// The copies users complain about beyond plain syndication, for the folding benchmark: the same job
// re-posted by a staffing agency under a reworded title, and the same job on another board that writes
// its location differently. Also "siblings": the same text posted for another city, which are different
// jobs and must not be folded. Pure functions of their Rng.
import type { PostingRecord } from '../model/record.ts';
import type { City } from './geo.ts';
import type { Rng } from './prng.ts';

const AGENCIES = [
  'Talentbridge Staffing',
  'Northstar Recruitment',
  'Keystone Talent Partners',
  'Harbor Search Group',
  'Meridian People',
  'Crestline Personnel',
  'Bluepeak Recruiting',
  'Atlas Workforce Solutions',
];

/** An agency's rewording of a title: reordered seniority, a place or arrangement tag, a gender tag. */
function rewordTitle(rng: Rng, title: string, city: string | undefined): string {
  let t = title;
  const senior = /^(Senior|Sr\.?|Junior|Jr\.?|Lead|Principal|Staff) (.+)$/.exec(t);
  const roll = rng.next();
  if (senior && roll < 0.35) {
    const level = senior[1].replace(/^Sr\.?$/, 'Senior').replace(/^Jr\.?$/, 'Junior');
    t = rng.pick([`${senior[2]} (${level})`, `${senior[2]} - ${level}`, `${senior[2]}, ${level}`]);
  } else if (senior && roll < 0.55) {
    t = t.replace(/^Senior /, 'Sr. ').replace(/^Junior /, 'Jr. ');
  }
  const tag = rng.next();
  if (city && tag < 0.4)
    t = rng.pick([`${t} - ${city}`, `${t} in ${city}`, `${t} | ${city}`, `${t} (${city})`]);
  else if (tag < 0.55) t = rng.pick([`Urgent: ${t}`, `${t} - Immediate Start`, `${t} - Permanent`]);
  else if (tag < 0.7) t = rng.pick([`${t} (m/f/d)`, `${t} (f/m/d)`, `${t} (all genders)`]);
  if (t === title) t = rng.pick([`${t} - Permanent`, `${t} (m/f/d)`, `Job: ${t}`]);
  return t;
}

/** The agency's re-post: its own board and URL, no link to the original, the client's text framed by its own. */
export function agencyRepost(
  rng: Rng,
  orig: PostingRecord,
  board: { slug: string; domain: string },
  native: string,
): PostingRecord {
  const agency = rng.pick(AGENCIES);
  const city = orig.location?.cities?.[0] ?? undefined;
  const url = `https://${board.domain}/agency/${agency.toLowerCase().replace(/\W+/g, '-')}/${native}`;
  const intro = `<p>${agency} is recruiting on behalf of ${orig.company.name}.</p>`;
  const outro = `<p>${agency} acts as an employment agency for this vacancy. Reference ${native.toUpperCase()}.</p>`;
  const rec: PostingRecord = {
    ...orig,
    id: `${board.slug}:${native}`,
    source: board.slug,
    title: rewordTitle(rng, orig.title, city),
    // The client's name as the agency writes it; boards know no profile slug.
    company: { name: orig.company.name },
    url,
    apply_url: url,
    posted_at: new Date(Date.parse(orig.posted_at!) + rng.int(1, 7) * 86_400_000).toISOString(),
  };
  delete rec.canonical_url;
  delete rec.requisition_id;
  delete rec.team;
  if (orig.description_html !== undefined)
    rec.description_html = `${intro}\n${orig.description_html}\n${outro}`;
  else rec.description_text = `${htmlless(intro)}\n\n${orig.description_text ?? ''}\n\n${htmlless(outro)}`;
  return rec;
}

function htmlless(s: string): string {
  return s.replace(/<[^>]+>/g, '');
}

// Spellings boards use for the same city (English and native names).
const SPELLINGS: Record<string, string[]> = {
  Munich: ['München', 'Muenchen'],
  Cologne: ['Köln'],
  Nuremberg: ['Nürnberg'],
  Vienna: ['Wien'],
  Zurich: ['Zürich'],
  Geneva: ['Genève'],
  Lisbon: ['Lisboa'],
  Milan: ['Milano'],
  Rome: ['Roma'],
  Turin: ['Torino'],
  Prague: ['Praha'],
  Warsaw: ['Warszawa'],
  Brussels: ['Bruxelles', 'Brussel'],
  Copenhagen: ['København'],
  Gothenburg: ['Göteborg'],
  'The Hague': ['Den Haag'],
  Bengaluru: ['Bangalore'],
  Gurgaon: ['Gurugram'],
  Mumbai: ['Bombay'],
  Kyiv: ['Kiev'],
  Montreal: ['Montréal'],
  'Mexico City': ['Ciudad de México', 'CDMX'],
  'São Paulo': ['Sao Paulo'],
  'New York': ['NYC', 'New York City'],
  'New York City': ['NYC', 'New York'],
  'Frankfurt am Main': ['Frankfurt'],
  Düsseldorf: ['Duesseldorf', 'Dusseldorf'],
};

/** One place written another way: a native name, a code instead of a name, another order or detail. */
function respell(rng: Rng, city: string, region: string | null, country: string, cc: string): string {
  const alt = SPELLINGS[city];
  const forms = [
    `${city}, ${cc}`,
    `${cc} - ${city}`,
    `${city} (${country})`,
    `Greater ${city} Area, ${country}`,
    region && region !== city ? `${city}, ${region}, ${country}` : `${city}, ${country}`,
  ];
  if (alt) forms.push(`${rng.pick(alt)}, ${country}`, rng.pick(alt));
  return rng.pick(forms);
}

/**
 * The same posting on another board that writes its location its own way and links no original:
 * only the location strings, re-spelled, and the board's own URL.
 */
export function respelledCopy(
  rng: Rng,
  orig: PostingRecord,
  cities: City[],
  board: { slug: string; domain: string },
  native: string,
  employerBoard: string,
): PostingRecord {
  const loc = orig.location ?? {};
  const raw = cities.length
    ? cities.map((c) => respell(rng, c.name, c.region, c.country.name, c.country.code))
    : (loc.raw ?? []).map((r) => respellRemote(rng, r));
  const url = `https://${board.domain}/${employerBoard}/${native}`;
  const rec: PostingRecord = {
    ...orig,
    id: `${board.slug}:${native}`,
    source: board.slug,
    company: { name: orig.company.name, ...(orig.company.domain ? { domain: orig.company.domain } : {}) },
    url,
    apply_url: orig.apply_url ?? orig.url,
    location: { raw, ...(loc.remote ? { remote: true } : {}) },
    posted_at: new Date(Date.parse(orig.posted_at!) + rng.int(0, 3) * 86_400_000).toISOString(),
  };
  delete rec.canonical_url;
  return rec;
}

/** A remote location in another of the usual forms ("Remote - Germany" → "Germany (Remote)"). */
function respellRemote(rng: Rng, raw: string): string {
  const m = /^Remote(?: - |, | \()(.+?)\)?$/.exec(raw) ?? /^(.+) \(Remote\)$/.exec(raw);
  if (!m) return raw;
  const forms = [`${m[1]} (Remote)`, `Remote - ${m[1]}`, `Remote, ${m[1]}`, `Remote (${m[1]})`];
  return rng.pick(forms.filter((f) => f !== raw));
}
