// Enrichment throughput on one core: `npx tsx bench/enrich.ts [count]`.
// Synthetic postings built from varied titles, locations, salaries and descriptions in four languages.
import { enrichPosting } from '../src/enrich/posting.ts';
import type { PostingRecord } from '../src/model/record.ts';

const TITLES = [
  'Senior Software Engineer, Backend',
  'SENIOR DATA ANALYST',
  'Product Designer (UX/UI)',
  'Account Executive - EMEA',
  'Softwareentwickler (m/w/d) Java',
  'Ingénieur DevOps H/F',
  'Desarrollador Full Stack',
  'Registered Nurse - ICU',
  'Warehouse Associate',
  'Head of Marketing',
  'Customer Support Specialist',
  'Junior Accountant',
  'Werkstudent Controlling',
  'Machine Learning Engineer',
  'Director of Sales',
  'CDL Truck Driver',
  'Office Manager',
  'Staff Site Reliability Engineer',
];
const LOCATIONS = [
  ['NYC'],
  ['San Francisco, CA'],
  ['Remote'],
  ['Remote – EU'],
  ['Hybrid (Berlin)'],
  ['London, UK'],
  ['München, Bayern, Deutschland'],
  ['Berlin; Paris'],
  ['2 Locations'],
  ['Austin, TX'],
  ['Toronto, ON'],
  ['Bengaluru, Karnataka, India'],
  ['Remote - US'],
  ['Madrid, España'],
  ['Paris, France'],
  ['Sydney NSW'],
];
const SALARIES = [
  { text: '$90k–$120k a year' },
  { text: '€45.000 - €55.000 brutto/Jahr' },
  { text: '£15/hour' },
  { min: 100, max: 130, currency: 'USD', unit: 'per-year-salary' },
  { text: 'INR 12 LPA' },
  undefined,
  undefined,
];
const BODIES = [
  `<h2>About the role</h2><p>We are looking for an engineer to build scalable services in Go, Python and TypeScript on AWS with Kubernetes and PostgreSQL.</p>
<h3>What you'll do</h3><ul><li>Design and ship APIs used by millions</li><li>Own services end to end</li><li>Mentor other engineers</li></ul>
<h3>Requirements</h3><ul><li>5+ years of experience in backend development</li><li>Bachelor's degree in Computer Science or equivalent</li><li>Experience with CI/CD, Docker and Terraform</li></ul>
<h3>Benefits</h3><ul><li>Health insurance</li><li>401(k) matching</li><li>Unlimited PTO</li></ul><p>We are unable to sponsor visas for this role. 40 hours per week.</p>`,
  `<p><strong>Deine Aufgaben</strong></p><ul><li>Entwicklung von Microservices mit Java und Spring Boot</li><li>Zusammenarbeit mit dem Produktteam</li></ul>
<p><strong>Dein Profil</strong></p><ul><li>Abgeschlossenes Studium der Informatik</li><li>Mindestens 3 Jahre Berufserfahrung</li><li>Sehr gute Deutsch- und Englischkenntnisse</li></ul>
<p><strong>Wir bieten</strong></p><ul><li>30 Urlaubstage</li><li>Jobticket</li><li>Flexible Arbeitszeiten, 40 Stunden pro Woche</li></ul>`,
  `<p>Nous recherchons un ingénieur pour rejoindre notre équipe à Paris. Vous travaillerez sur notre plateforme cloud.</p>
<p>Vos missions :</p><ul><li>Automatiser l'infrastructure avec Terraform et Ansible</li><li>Améliorer la fiabilité</li></ul>
<p>Profil recherché :</p><ul><li>2 ans d'expérience minimum</li><li>Connaissance de Linux et Kubernetes</li></ul>`,
  `<p>Buscamos un desarrollador para nuestro equipo en Madrid. Trabajarás con React, Node.js y MongoDB.</p>
<p>Requisitos:</p><ul><li>Grado en Ingeniería Informática</li><li>3 años de experiencia</li></ul><p>Ofrecemos:</p><ul><li>Seguro médico</li><li>Teletrabajo parcial</li></ul>`,
];

function postings(n: number): PostingRecord[] {
  const out: PostingRecord[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      id: `bench:${i}`,
      source: 'bench',
      title: TITLES[i % TITLES.length],
      company: { name: `Company ${i % 97}` },
      url: `https://example.com/jobs/${i}`,
      description_html: BODIES[i % BODIES.length].replace('engineer', `engineer ${i}`),
      location: { raw: LOCATIONS[(i * 7) % LOCATIONS.length] },
      salary: SALARIES[i % SALARIES.length],
    });
  }
  return out;
}

const count = Number(process.argv[2] ?? 5000);
const recs = postings(count);
let t = performance.now();
enrichPosting(recs[0]);
const firstMs = performance.now() - t;
// Warm-up, then the measured run.
for (let i = 0; i < Math.min(500, count); i++) enrichPosting(recs[i]);
t = performance.now();
const cpu0 = process.cpuUsage();
for (const r of recs) enrichPosting(r);
const ms = performance.now() - t;
const cpu = process.cpuUsage(cpu0);
// CPU time as well as wall time: on a shared machine the wall figure includes waiting for a core.
const cpuMs = (cpu.user + cpu.system) / 1000;
const mem = process.memoryUsage();
console.log(
  `enriched ${count} postings in ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU: ` +
    `${Math.round((count / ms) * 1000)} postings/s wall, ${Math.round((count / cpuMs) * 1000)} postings per CPU-second ` +
    `(first call incl. gazetteer load ${firstMs.toFixed(0)} ms; heap ${(mem.heapUsed / 1e6).toFixed(0)} MB, rss ${(mem.rss / 1e6).toFixed(0)} MB)`,
);
