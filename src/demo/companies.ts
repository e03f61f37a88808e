// Employers: invented names, LinkedIn-style slugs that are not derivable from the name, domains, sizes,
// funding and HQ. Posting volume per company is Zipf-like (a few large employers post most jobs) and size
// follows rank. Profiles are regenerated from (seed, index), so only a compact view is kept in memory.
import type { CompanyRecord } from '../model/record.ts';
import { COUNTRY_BY_CODE, type CountryInfo, countryPicker, pickCity } from './geo.ts';
import { type Family, INDUSTRIES } from './occupations.ts';
import { Rng, Weighted } from './prng.ts';
import { SIZE_BUCKETS as SIZE_LABELS } from '../enums.ts';

const FIRST = [
  'Acme',
  'Apex',
  'Arbor',
  'Atlas',
  'Aurora',
  'Beacon',
  'Birch',
  'Blue',
  'Bold',
  'Bright',
  'Cascade',
  'Cedar',
  'Clear',
  'Cloud',
  'Cobalt',
  'Compass',
  'Copper',
  'Core',
  'Crest',
  'Crimson',
  'Delta',
  'Dune',
  'Echo',
  'Ember',
  'Evergreen',
  'Falcon',
  'Fern',
  'Flux',
  'Forge',
  'Frontier',
  'Garnet',
  'Golden',
  'Granite',
  'Green',
  'Harbor',
  'Helix',
  'Horizon',
  'Hudson',
  'Indigo',
  'Iron',
  'Juniper',
  'Keystone',
  'Kinetic',
  'Lake',
  'Lantern',
  'Ledger',
  'Lumen',
  'Lunar',
  'Maple',
  'Meridian',
  'Metro',
  'Mosaic',
  'Nimbus',
  'North',
  'Nova',
  'Oak',
  'Onyx',
  'Orbit',
  'Pacific',
  'Peak',
  'Pine',
  'Pioneer',
  'Pixel',
  'Prairie',
  'Prime',
  'Quantum',
  'Quartz',
  'Radiant',
  'Red',
  'Ridge',
  'River',
  'Sage',
  'Sapphire',
  'Sierra',
  'Silver',
  'Slate',
  'Solar',
  'Spark',
  'Spruce',
  'Stellar',
  'Stone',
  'Summit',
  'Swift',
  'Terra',
  'Thunder',
  'Tidal',
  'True',
  'Union',
  'Vector',
  'Velvet',
  'Vertex',
  'Vista',
  'Willow',
  'Wind',
  'Zenith',
  'Zephyr',
  'Alder',
  'Amber',
  'Anchor',
  'Blackwood',
  'Brook',
  'Canyon',
];
const INVENTED = [
  'Zyl',
  'Quor',
  'Vanta',
  'Trell',
  'Omni',
  'Kova',
  'Nexa',
  'Lumi',
  'Brava',
  'Corva',
  'Dexo',
  'Fyra',
  'Gravi',
  'Hexa',
  'Ivra',
  'Jovi',
  'Kyro',
  'Lyra',
  'Mira',
  'Noxi',
  'Ostra',
  'Pyxi',
  'Qubi',
  'Rova',
  'Sola',
  'Tava',
  'Ulto',
  'Vero',
  'Wexa',
  'Xeno',
  'Yuma',
  'Zora',
  'Aeri',
  'Bexo',
  'Cira',
  'Davo',
  'Elio',
  'Fenn',
];
const INVENTED_END = ['ly', 'io', 'ify', 'ra', 'os', 'ex', 'on', 'ia', 'ik', 'um', 'ant', 'ic', 'era', 'ium'];
const SURNAMES = [
  'Miller',
  'Hartley',
  'Brooks',
  'Carter',
  'Dawson',
  'Ellison',
  'Fischer',
  'Garcia',
  'Hoffmann',
  'Kowalski',
  'Laurent',
  'Morgan',
  'Nakamura',
  'Okafor',
  'Patel',
  'Quinn',
  'Reyes',
  'Schmidt',
  'Thompson',
  'Vasquez',
  'Walsh',
  'Young',
  'Bennett',
  'Chandler',
  'Donovan',
  'Fitzgerald',
  'Grant',
  'Hayes',
  'Keller',
  'Lambert',
];
const NOUN: Record<Family, string[]> = {
  software: ['Software', 'Labs', 'Systems', 'Technologies', 'Cloud', 'AI', 'Data', 'Networks', 'Digital'],
  data: ['Analytics', 'Data', 'AI', 'Insights', 'Intelligence'],
  it: ['IT Solutions', 'Technologies', 'Systems', 'Tech', 'Networks'],
  design: ['Studio', 'Design', 'Creative'],
  product: ['Labs', 'Works', 'Ventures'],
  marketing: ['Media', 'Marketing', 'Agency', 'Communications', 'Brands'],
  sales: ['Retail', 'Stores', 'Market', 'Outfitters', 'Goods', 'Supply'],
  support: ['Services', 'Solutions', 'Connect'],
  finance: ['Capital', 'Financial', 'Bank', 'Partners', 'Wealth', 'Payments', 'Insurance'],
  hr: ['Staffing', 'Talent', 'Workforce', 'People', 'Recruitment'],
  legal: ['Legal', 'Law Group', 'Partners', 'Advisory'],
  healthcare: ['Health', 'Medical Center', 'Healthcare', 'Clinic', 'Care', 'Health System'],
  education: ['Academy', 'Learning', 'School District', 'University', 'Education'],
  logistics: ['Logistics', 'Freight', 'Transport', 'Distribution', 'Express', 'Shipping'],
  manufacturing: ['Manufacturing', 'Industries', 'Engineering', 'Components', 'Robotics', 'Materials'],
  trades: ['Construction', 'Builders', 'Contracting', 'Electric', 'Mechanical', 'Homes'],
  hospitality: ['Hotels', 'Hospitality', 'Kitchen', 'Restaurant Group', 'Resorts', 'Foods'],
  admin: ['Group', 'Services', 'Holdings', 'Associates'],
  science: ['Bio', 'Therapeutics', 'Biosciences', 'Pharma', 'Genomics', 'Diagnostics'],
  security: ['Security', 'Cyber', 'Defense', 'Protection'],
  consulting: ['Consulting', 'Advisory', 'Partners', 'Group', 'Associates'],
  energy: ['Energy', 'Power', 'Solar', 'Renewables', 'Farms', 'Agritech'],
};
const LEGAL: Record<string, string[]> = {
  US: ['Inc.', 'LLC', 'Corp.', '', '', ''],
  GB: ['Ltd', 'plc', 'Limited', '', ''],
  DE: ['GmbH', 'AG', 'GmbH & Co. KG', ''],
  AT: ['GmbH', 'AG', ''],
  CH: ['AG', 'SA', 'GmbH', ''],
  FR: ['SAS', 'SA', ''],
  NL: ['B.V.', 'N.V.', ''],
  IN: ['Pvt Ltd', 'Private Limited', 'Technologies Pvt Ltd', ''],
  ES: ['S.L.', 'S.A.', ''],
  IT: ['S.r.l.', 'S.p.A.', ''],
  SE: ['AB', ''],
  AU: ['Pty Ltd', ''],
  CA: ['Inc.', 'Ltd.', ''],
  BR: ['Ltda', 'S.A.', ''],
};
const TLD: Record<string, string[]> = {
  US: ['com', 'com', 'com', 'io', 'ai', 'co'],
  GB: ['co.uk', 'com', 'io'],
  DE: ['de', 'com', 'io'],
  FR: ['fr', 'com'],
  NL: ['nl', 'com'],
  IN: ['in', 'com', 'co.in'],
  ES: ['es', 'com'],
  AU: ['com.au', 'com'],
  CA: ['ca', 'com'],
};

const TOP_HQ = [
  'US',
  'US',
  'GB',
  'US',
  'DE',
  'US',
  'IN',
  'US',
  'CA',
  'FR',
  'US',
  'NL',
  'US',
  'AU',
  'ES',
  'US',
];
const LEGAL_SUFFIX =
  /\s+(Inc\.?|LLC|Corp\.?|Ltd\.?|plc|Limited|GmbH( & Co\. KG)?|AG|SAS|SA|B\.V\.|N\.V\.|S\.L\.|S\.A\.|S\.r\.l\.|S\.p\.A\.|Pty Ltd|Pvt Ltd|Technologies Pvt Ltd|Private Limited|AB|Ltda)$/;

// Bounds read from the spec's bucket labels ("11-50 employees", "10001+ employees").
const SIZE_BUCKETS: [number, number, string][] = SIZE_LABELS.map((label) => {
  const [, lo, hi] = /^(\d+)(?:-(\d+))?/.exec(label)!;
  return [Number(lo), hi ? Number(hi) : Number.POSITIVE_INFINITY, label];
});
function sizeRange(n: number): string {
  return SIZE_BUCKETS.find(([lo, hi]) => n >= lo && n <= hi)![2];
}

const ROUND_TYPES = [
  'Pre-Seed',
  'Seed',
  'Series A',
  'Series B',
  'Series C',
  'Series D',
  'Series E',
  'Private Equity',
];
const FUNDING_CATEGORIES: Record<Family, string[]> = {
  software: ['SaaS', 'Software', 'Enterprise Software', 'Developer Tools', 'Artificial Intelligence'],
  data: ['Analytics', 'Big Data', 'Artificial Intelligence', 'Machine Learning'],
  it: ['Information Technology', 'Cloud Computing', 'IT Management'],
  design: ['Design', 'Creative Agency'],
  product: ['Software', 'Internet'],
  marketing: ['Advertising', 'Digital Marketing', 'Media and Entertainment'],
  sales: ['E-Commerce', 'Retail', 'Consumer Goods'],
  support: ['Customer Service', 'Outsourcing'],
  finance: ['FinTech', 'Financial Services', 'Payments', 'Insurance'],
  hr: ['Human Resources', 'Recruiting', 'Staffing Agency'],
  legal: ['Legal Tech', 'Legal'],
  healthcare: ['Health Care', 'Medical', 'Hospital'],
  education: ['EdTech', 'Education', 'E-Learning'],
  logistics: ['Logistics', 'Supply Chain Management', 'Transportation'],
  manufacturing: ['Manufacturing', 'Robotics', 'Industrial Automation'],
  trades: ['Construction', 'Real Estate', 'Home Services'],
  hospitality: ['Hospitality', 'Food and Beverage', 'Restaurants'],
  admin: ['Professional Services'],
  science: ['Biotechnology', 'Pharmaceutical', 'Life Science'],
  security: ['Cyber Security', 'Security', 'Network Security'],
  consulting: ['Consulting', 'Management Consulting'],
  energy: ['Renewable Energy', 'CleanTech', 'AgTech'],
};

/** What a posting needs to know about its employer. */
export interface Employer {
  index: number;
  name: string;
  slug: string;
  domain: string;
  industry: string;
  families: Family[];
  hq: CountryInfo;
  employees: number;
  /** The ATS the employer posts through, and its board token there. */
  ats: string;
  board: string;
  /** Share of its postings outside the HQ country. */
  abroad: number;
  remoteFriendly: number;
}

const industryPicker = new Weighted(
  INDUSTRIES,
  INDUSTRIES.map((i) => i.weight),
);
// Which ATS an employer uses depends on its size and where it is (Personio in the DACH region, Workday for
// large employers); jobposter is the posting platform small employers use.
function pickAts(rng: Rng, employees: number, hq: string): string {
  if (employees > 5000 && rng.chance(0.6)) return 'workday';
  if ((hq === 'DE' || hq === 'AT' || hq === 'CH') && rng.chance(0.45)) return 'personio';
  if ((hq === 'NL' || hq === 'BE') && rng.chance(0.35)) return 'recruitee';
  if (employees <= 50 && rng.chance(0.3)) return 'jobposter';
  return Weighted.from([
    ['greenhouse', 30],
    ['lever', 18],
    ['ashby', 10],
    ['workable', 12],
    ['smartrecruiters', 12],
    ['recruitee', 4],
    ['workday', 8],
    ['jobposter', 6],
  ] as const).pick(rng);
}

function slugify(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function baseName(rng: Rng, family: Family): string {
  const style = rng.next();
  const noun = rng.pick(NOUN[family]);
  if (style < 0.45) return `${rng.pick(FIRST)} ${noun}`;
  if (style < 0.65) return `${rng.pick(INVENTED)}${rng.pick(INVENTED_END)}`;
  if (style < 0.8) return `${rng.pick(INVENTED)}${rng.pick(INVENTED_END)} ${noun}`;
  if (style < 0.9) return `${rng.pick(SURNAMES)} ${rng.chance(0.5) ? '&' : 'and'} ${rng.pick(SURNAMES)}`;
  return `${rng.pick(SURNAMES)} ${noun}`;
}

/** Company names, slugs and domains, unique within one dataset. */
export class NameRegistry {
  private names = new Set<string>();
  private slugs = new Set<string>();
  private domains = new Set<string>();

  name(rng: Rng, family: Family, hq: string): string {
    for (let attempt = 0; ; attempt++) {
      let n = baseName(rng, family);
      if (attempt > 3) n = `${n} ${rng.pick(FIRST)}`;
      if (attempt > 8) n = `${n} ${rng.int(2, 99)}`;
      const legal = rng.pick(LEGAL[hq] ?? ['', 'Ltd', 'Inc.']);
      const full = legal && rng.chance(0.5) ? `${n} ${legal}` : n;
      const key = slugify(n);
      if (this.names.has(key)) continue;
      this.names.add(key);
      return full;
    }
  }

  // LinkedIn slugs: claimed by whoever got there first, so many carry a suffix or an old name.
  slug(rng: Rng, name: string): string {
    const bare = slugify(name.replace(LEGAL_SUFFIX, ''));
    const joined = bare.replace(/-/g, '');
    const words = bare.split('-');
    const acronym = words.length > 1 ? words.map((w) => w[0]).join('') : joined.slice(0, 4);
    for (let attempt = 0; ; attempt++) {
      const style = rng.next();
      let s: string;
      if (style < 0.22) s = slugify(name);
      else if (style < 0.4)
        s = `${bare}-${rng.pick(['inc', 'hq', 'group', 'global', 'official', 'co', 'team'])}`;
      else if (style < 0.55) s = `${joined}${rng.pick(['', 'hq', 'inc', 'global', 'app'])}`;
      else if (style < 0.7) s = `${bare}-${rng.int(2, 9999)}`;
      else if (style < 0.8) s = `${acronym}-${words[words.length - 1]}`;
      else if (style < 0.9) s = `the-${bare}`;
      else s = `${joined}-${rng.pick(['careers', 'jobs', 'tech', 'labs', 'us', 'worldwide'])}`;
      if (attempt > 5) s = `${s}-${rng.int(10, 99999)}`;
      if (!this.slugs.has(s)) {
        this.slugs.add(s);
        return s;
      }
    }
  }

  domain(rng: Rng, name: string, hq: string): string {
    const joined = slugify(name.replace(LEGAL_SUFFIX, '')).replace(/-/g, '');
    for (let attempt = 0; ; attempt++) {
      const tld = rng.pick(TLD[hq] ?? ['com', 'com', 'io']);
      let d = `${joined}${attempt > 1 ? rng.pick(['hq', 'app', 'group', 'global', 'corp', 'inc', 'team']) : ''}${attempt > 4 ? rng.int(2, 999) : ''}.${tld}`;
      if (rng.chance(0.08)) d = `get${d}`;
      if (!this.domains.has(d)) {
        this.domains.add(d);
        return d;
      }
    }
  }
}

export function companyCount(jobs: number): number {
  return Math.max(20, Math.min(200_000, Math.round(jobs / 20)));
}

const SPECIALTIES_GENERIC = ['Customer Experience', 'Innovation', 'Sustainability', 'Operations', 'Quality'];

export interface GeneratedCompany {
  employer: Employer;
  record: CompanyRecord;
}

/**
 * The company of rank `index` (0 = the employer with the most postings). Rank sets the size: large
 * employers post most of the jobs.
 */
export function makeCompany(
  seed: number,
  index: number,
  total: number,
  names: NameRegistry,
  now: Date,
): GeneratedCompany {
  const rng = Rng.of(seed, 0xc0, index);
  const industry = industryPicker.pick(rng);
  const family = industry.families[0];
  // HQ follows the posting-country mix (most postings are in the employer's own country); the few largest
  // posters are fixed so that small datasets still show the intended country shares.
  const hq = index < TOP_HQ.length ? COUNTRY_BY_CODE.get(TOP_HQ[index])! : countryPicker.pick(rng);
  const name = names.name(rng, rng.chance(0.7) ? family : rng.pick(industry.families), hq.code);
  const slug = names.slug(rng, name);
  const domain = names.domain(rng, name, hq.code);
  // Size by rank: the top of the Zipf curve are big employers; the tail is mostly small.
  const rankShare = (index + 1) / total;
  const median =
    rankShare < 0.001 ? 40000 : rankShare < 0.01 ? 6000 : rankShare < 0.1 ? 700 : rankShare < 0.4 ? 120 : 30;
  const employees = Math.max(1, Math.round(rng.logNormal(median, 0.9)));
  const ats = pickAts(rng, employees, hq.code);
  const city = pickCity(rng, hq);
  const founded =
    employees > 10000 ? rng.int(1890, 2005) : employees > 1000 ? rng.int(1960, 2015) : rng.int(1995, 2023);
  const funded = rng.chance(employees < 2000 && founded > 2000 ? 0.55 : 0.12);
  let funding: CompanyRecord['funding'] = null;
  if (funded) {
    const rounds = rng.int(1, employees > 500 ? 7 : 4);
    const type = ROUND_TYPES[Math.min(ROUND_TYPES.length - 1, rounds - 1 + (rng.chance(0.2) ? 1 : 0))];
    const last = Math.round(rng.logNormal(2_000_000 * 2.2 ** rounds, 0.6) / 100_000) * 100_000;
    const total = Math.round((last * (1 + rng.next() * (rounds - 1) * 0.8)) / 100_000) * 100_000;
    const date = new Date(now.getTime() - rng.int(30, 365 * 5) * 86_400_000).toISOString().slice(0, 10);
    funding = {
      rounds,
      last_round_type: type,
      last_round_date: date,
      last_round_amount_usd: last,
      total_investment_usd: total,
      fundingdb_slug: slugify(name),
      fundingdb_categories: rng.sample(FUNDING_CATEGORIES[family], rng.int(1, 3)),
    };
  }
  const followers = Math.round(employees * rng.logNormal(12, 1.1) + rng.int(0, 300));
  const shortName = name.replace(LEGAL_SUFFIX, '');
  const specialties = rng.sample(
    [...(FUNDING_CATEGORIES[family] ?? []), ...SPECIALTIES_GENERIC],
    rng.int(2, 6),
  );
  const record: CompanyRecord = {
    slug,
    name,
    domain,
    website: `https://www.${domain}`,
    logo: `https://logos.example/${slug}.png`,
    industry: industry.name,
    type:
      employees > 5000 && rng.chance(0.6)
        ? 'Public Company'
        : rng.pick(['Privately Held', 'Privately Held', 'Privately Held', 'Partnership', 'Self-Owned']),
    description: `${shortName} is a ${industry.name.toLowerCase()} company headquartered in ${city.name}, ${hq.name}. Founded in ${founded}, the team of ${employees.toLocaleString('en-US')} works on ${specialties.slice(0, 2).join(' and ').toLowerCase()} for customers in ${rng.int(1, 60)} countries.`,
    slogan: rng.pick([
      `Building the future of ${specialties[0].toLowerCase()}`,
      'People first, always',
      `${shortName}: work that matters`,
      'Simple. Reliable. Human.',
      `Powering ${industry.name.toLowerCase()} worldwide`,
    ]),
    specialties,
    employee_count: employees,
    size_range: sizeRange(employees),
    followers,
    founded_year: founded,
    hq: rng.chance(0.92)
      ? {
          country: hq.code,
          region: city.region ?? undefined,
          locality: city.name,
          raw: `${city.name}, ${city.region ? `${city.region}, ` : ''}${hq.name}`,
        }
      : null,
    funding,
    stock: null,
    affiliated_companies: [],
    // Well-followed employers are verified more often.
    data_tier: rng.chance(followers > 20000 ? 0.7 : 0.15) ? 'remco' : rng.pick(['standard', 'basic']),
  };
  const abroad = employees > 5000 ? 0.35 : employees > 500 ? 0.2 : 0.07;
  const employer: Employer = {
    index,
    name,
    slug,
    domain,
    industry: industry.name,
    families: industry.families,
    hq,
    employees,
    ats,
    board: slug.replace(/-/g, '').slice(0, 24),
    abroad,
    remoteFriendly: family === 'software' || family === 'data' ? 0.3 : 0.08,
  };
  return { employer, record };
}

/** An employer that posts but has no profile (small businesses, agencies hiring for clients). */
export function makeGhostEmployer(seed: number, index: number): Employer {
  const rng = Rng.of(seed, 0x6a, index);
  const industry = industryPicker.pick(rng);
  const hq = countryPicker.pick(rng);
  const base = baseName(rng, industry.families[0]);
  const name = `${base} ${rng.pick(LEGAL[hq.code] ?? ['Ltd'])}`.trim();
  const joined = slugify(base).replace(/-/g, '');
  return {
    index: -1 - index,
    name,
    slug: '',
    domain: `${joined}${rng.int(1, 999)}.${rng.pick(TLD[hq.code] ?? ['com'])}`,
    industry: industry.name,
    families: industry.families,
    hq,
    employees: rng.int(2, 80),
    ats: rng.chance(0.6) ? 'jobposter' : rng.pick(['workable', 'recruitee', 'greenhouse']),
    board: `${joined.slice(0, 18)}${rng.int(1, 99)}`,
    abroad: 0.03,
    remoteFriendly: 0.05,
  };
}

/** Zipf-like posting share per company rank (exponent a bit above 1, flattened at the head). */
export function zipfPicker(count: number): Weighted<number> {
  const idx: number[] = new Array(count);
  const w: number[] = new Array(count);
  for (let i = 0; i < count; i++) {
    idx[i] = i;
    w[i] = 1 / (i + 3) ** 1.05;
  }
  return new Weighted(idx, w);
}

/** The name without its legal form ("Acme Robotics Inc." → "Acme Robotics"), as boards often show it. */
export function shortCompanyName(name: string): string {
  return name.replace(LEGAL_SUFFIX, '') || name;
}
