// Description HTML from sentence templates, filled with the job's title, company, skills and place, so
// full-text search has realistic vocabulary to work on. English has per-family responsibilities; German,
// French and Spanish share generic templates.
import type { Family } from './occupations.ts';
import type { Rng } from './prng.ts';

export interface TextContext {
  title: string;
  company: string;
  city: string | null;
  country: string;
  family: Family;
  skills: string[];
  /** Display forms of the skills ("PostgreSQL" style is not needed: the token reads fine). */
  years: number;
  remote: boolean;
  education: string | null;
  benefits: string[];
  visa: boolean | null;
  department: string;
}

const DUTIES: Record<Family, string[]> = {
  software: [
    'Design, build and operate services that handle millions of requests a day',
    'Write clean, well-tested code and review the code of your teammates',
    'Own features end to end, from technical design to rollout and monitoring',
    'Improve the reliability, latency and cost of our production systems',
    'Work with product managers and designers to shape the roadmap',
    'Mentor engineers and raise the bar for engineering practices across the team',
    'Take part in an on-call rotation and lead incident reviews',
    'Break down large problems into small, shippable increments',
    'Contribute to architecture decisions and document them clearly',
    'Automate builds, tests and deployments in our continuous delivery pipeline',
  ],
  data: [
    'Build and maintain data pipelines that feed analytics and machine learning products',
    'Design experiments, analyse the results and present recommendations to stakeholders',
    'Develop models that forecast demand and detect anomalies',
    'Define metrics and build dashboards that the business relies on every day',
    'Partner with engineering to put models into production and monitor their quality',
    'Clean, model and document datasets so that others can trust and reuse them',
    'Translate ambiguous business questions into rigorous analyses',
  ],
  it: [
    'Provide first and second line support to employees on site and remotely',
    'Administer user accounts, devices and access rights',
    'Maintain servers, networks and backup systems and keep them patched',
    'Document procedures and keep the knowledge base up to date',
    'Plan and carry out hardware and software rollouts',
    'Monitor systems and respond to alerts and outages',
  ],
  design: [
    'Lead the design of new features from discovery to polished interface',
    'Run user interviews and usability tests and turn findings into design decisions',
    'Create wireframes, prototypes and high-fidelity designs',
    'Contribute to and evolve our design system',
    'Work closely with engineers to ship pixel-perfect, accessible experiences',
    'Present your work and rationale to stakeholders and leadership',
  ],
  product: [
    'Define the vision, strategy and roadmap for your product area',
    'Write clear requirements and prioritise the backlog with the engineering team',
    'Talk to customers every week and turn their problems into opportunities',
    'Coordinate timelines, budgets and resources across several teams',
    'Track delivery risks and communicate progress to stakeholders',
    'Measure outcomes and iterate based on data',
  ],
  marketing: [
    'Plan and execute integrated campaigns across paid, owned and earned channels',
    'Manage the marketing budget and report on pipeline contribution',
    'Create compelling content for our website, blog, newsletter and social channels',
    'Optimise landing pages and funnels through continuous testing',
    'Work with sales to define target segments and messaging',
    'Analyse campaign performance and share insights with the team',
  ],
  sales: [
    'Own the full sales cycle from prospecting to close',
    'Build and manage a healthy pipeline and forecast accurately',
    'Run discovery calls and tailored product demonstrations',
    'Negotiate contracts and close new business with decision makers',
    'Maintain accurate records of all activity in the CRM',
    'Greet customers, answer questions and help them find the right products',
    'Meet and exceed monthly and quarterly targets',
    'Collaborate with customer success to expand existing accounts',
  ],
  support: [
    'Be the trusted advisor for a portfolio of customers after they sign',
    'Respond to customer enquiries by phone, email and chat with empathy and speed',
    'Troubleshoot technical issues and escalate bugs with clear reproduction steps',
    'Onboard new customers and drive adoption of key features',
    'Identify expansion opportunities and reduce churn',
    'Document solutions and improve our help centre articles',
  ],
  finance: [
    'Prepare monthly, quarterly and annual financial statements',
    'Own the month-end close process and account reconciliations',
    'Build financial models and support budgeting and forecasting',
    'Process invoices, payments and expense reports accurately and on time',
    'Support external audits and ensure compliance with accounting standards',
    'Analyse variances and explain the drivers to business partners',
  ],
  hr: [
    'Partner with hiring managers to define roles and hiring plans',
    'Source, screen and interview candidates and guide them through the process',
    'Advise managers on performance, employee relations and organisational design',
    'Run onboarding and make new hires feel at home from day one',
    'Maintain employee records and HR systems',
    'Develop programmes for engagement, learning and career growth',
  ],
  legal: [
    'Draft, review and negotiate commercial agreements',
    'Advise the business on regulatory, privacy and compliance matters',
    'Manage outside counsel and legal budgets',
    'Conduct legal research and prepare case documentation',
    'Monitor transactions and report suspicious activity',
    'Keep policies and procedures up to date with changing regulations',
  ],
  healthcare: [
    'Deliver safe, high-quality, patient-centred care',
    'Assess, plan, implement and evaluate patient care plans',
    'Administer medications and treatments as prescribed',
    'Document care accurately in the electronic health record',
    'Educate patients and families about diagnoses and follow-up care',
    'Work as part of a multidisciplinary team to improve outcomes',
    'Assist residents with daily living activities with dignity and respect',
  ],
  education: [
    'Plan and deliver engaging lessons aligned with the curriculum',
    'Assess student progress and provide constructive feedback',
    'Create a safe, inclusive and supportive learning environment',
    'Communicate regularly with parents and colleagues',
    'Design learning materials and online courses',
    'Take part in professional development and school activities',
  ],
  logistics: [
    'Pick, pack and ship customer orders accurately and safely',
    'Load and unload trucks and move inventory with pallet jacks and forklifts',
    'Deliver packages to customers on time and provide excellent service',
    'Plan routes and schedules to keep shipments on track',
    'Maintain accurate inventory records and investigate discrepancies',
    'Follow all safety procedures and keep the work area clean',
    'Coordinate with carriers, suppliers and customs brokers',
  ],
  manufacturing: [
    'Operate and monitor production equipment to meet output and quality targets',
    'Design components and assemblies and create detailed drawings',
    'Lead root cause analysis and implement corrective actions',
    'Support new product introduction from prototype to volume production',
    'Drive continuous improvement using lean and six sigma methods',
    'Perform quality inspections and document results',
  ],
  trades: [
    'Install, maintain and repair systems according to code',
    'Read blueprints and technical drawings to plan the work',
    'Diagnose faults and carry out repairs safely and efficiently',
    'Manage subcontractors, schedules and budgets on site',
    'Perform preventive maintenance and keep service records',
    'Ensure compliance with health and safety regulations',
  ],
  hospitality: [
    'Prepare dishes to our recipes and presentation standards',
    'Welcome guests and provide warm, attentive service',
    'Keep the kitchen and dining areas clean and organised',
    'Handle reservations, check-ins and payments',
    'Follow food safety and hygiene procedures at all times',
    'Lead shifts and train new team members',
  ],
  admin: [
    'Manage complex calendars, travel and meetings',
    'Answer phones, greet visitors and handle correspondence',
    'Prepare documents, reports and presentations',
    'Maintain filing systems and office supplies',
    'Coordinate events and support the leadership team',
    'Process data entry tasks accurately and on time',
  ],
  science: [
    'Design and run experiments and analyse the results',
    'Prepare samples and operate laboratory instruments',
    'Maintain accurate laboratory records in line with GMP and GLP',
    'Present findings at internal meetings and scientific conferences',
    'Monitor clinical trial sites and verify data quality',
    'Collaborate with cross-functional teams to advance our pipeline',
  ],
  security: [
    'Protect our systems, data and people from threats',
    'Monitor alerts, investigate incidents and lead the response',
    'Run threat models and security reviews with engineering teams',
    'Patrol the premises and control access to buildings',
    'Write incident reports and maintain security logs',
    'Build tooling that automates detection and remediation',
  ],
  consulting: [
    'Work with client leadership teams on strategic and operational challenges',
    'Gather requirements and map business processes',
    'Analyse data and build models that support recommendations',
    'Prepare and deliver presentations to senior stakeholders',
    'Configure and implement enterprise systems for our clients',
    'Manage workstreams and coordinate project teams',
  ],
  energy: [
    'Install and maintain solar panels and related equipment',
    'Analyse energy markets and model generation and demand',
    'Operate farm machinery and support planting and harvest',
    'Monitor crops, soil and irrigation and recommend improvements',
    'Follow safety procedures on site and at height',
  ],
};

const INTRO = [
  '{company} is looking for a {title} to join our {department} team{where}.',
  'We are hiring a {title}{where}. At {company}, you will work with a team that cares about doing things well.',
  'Join {company} as a {title}{where} and help us grow faster than ever.',
  'As a {title} at {company}, you will play a key role in our {department} team{where}.',
  'Are you an experienced {title}? {company} has an exciting opportunity{where}.',
];
const ROLE = [
  'This is a great opportunity for someone who enjoys ownership, learning and working with a friendly, driven team.',
  'You will report to the head of {department} and work closely with colleagues across the company.',
  'In this role you will have a direct impact on our customers and on how we work.',
  'We value curiosity, clear communication and a bias for action.',
  'Our team is small enough that your work is visible and big enough to offer real career growth.',
  'We move quickly, ship often and learn from every release.',
  'You will join a diverse team that supports each other and celebrates wins together.',
];
const REQS = [
  '{years}+ years of experience as a {title} or in a similar role',
  'Hands-on experience with {skill1} and {skill2}',
  'Strong knowledge of {skill1}',
  'Familiarity with {skill2} and {skill3} is a plus',
  'Excellent written and verbal communication skills in English',
  'A structured, reliable way of working and strong attention to detail',
  'Ability to prioritise and manage multiple tasks in a fast-paced environment',
  'A collaborative mindset and the desire to keep learning',
  'Experience working with {skill3} in a production environment',
  'Problem-solving skills and sound judgement',
];
const NICE = [
  'Experience with {skill4}',
  'Previous experience in a high-growth company',
  'Knowledge of {skill5}',
  'A second language',
  'Industry certifications',
];
const EDU: Record<string, string> = {
  'high school': 'High school diploma or equivalent',
  'professional certificate': 'A relevant professional certification or licence',
  'associate degree': "Associate's degree in a related field or equivalent experience",
  'bachelor degree': "Bachelor's degree in a related field or equivalent practical experience",
  'postgraduate degree': "Master's degree or PhD in a relevant discipline",
};
// Optional sections: most boards post 1–3 KB, some employers write long pages.
const EXTRA: { heading: string; paragraphs: string[] }[] = [
  {
    heading: 'How we work',
    paragraphs: [
      'We write things down. Decisions, plans and retrospectives live in shared documents so that everyone can follow along, whatever their time zone.',
      'Teams plan in short cycles, agree on a small number of goals and review progress every week. We prefer small, frequent releases over big launches.',
      'We keep meetings short and purposeful and protect time for focused work. Most days have at least one meeting-free block.',
      'Feedback is part of everyday work: in code reviews, in one-to-ones and in our twice-yearly growth conversations.',
    ],
  },
  {
    heading: 'About the team',
    paragraphs: [
      'The {department} team is made up of people with very different backgrounds who share a commitment to quality and to each other.',
      'You will join a group of experienced colleagues who enjoy sharing what they know and helping newcomers find their feet.',
      'Our {department} group has grown steadily over the last few years and now supports customers in many markets.',
    ],
  },
  {
    heading: 'Your first 90 days',
    paragraphs: [
      'In your first month you will get to know the team, our customers and our tools, and ship your first improvements with the support of an onboarding buddy.',
      'By the end of your second month you will own a meaningful piece of work and have a clear picture of where you can make the biggest difference.',
      'By day 90 you will be a trusted member of the team, contributing ideas to the roadmap and helping others.',
    ],
  },
  {
    heading: 'Our interview process',
    paragraphs: [
      'The process starts with a 30-minute call with our recruiting team, followed by a conversation with the hiring manager.',
      'Depending on the role, we then ask you to complete a practical exercise that reflects the work you would do here, and to meet two or three future colleagues.',
      'We aim to complete the process within three weeks and to give feedback at every stage.',
    ],
  },
  {
    heading: 'Diversity and inclusion',
    paragraphs: [
      'We know that diverse teams build better products. We are committed to fair hiring and to an inclusive workplace where everyone can do their best work.',
      'Employee resource groups, mentoring programmes and transparent pay bands are part of how we make that commitment real.',
    ],
  },
  {
    heading: 'Compensation',
    paragraphs: [
      'The salary offered will depend on experience, skills and location. Total compensation may also include a bonus and equity.',
      'Compensation is reviewed every year against market data. We share salary bands openly with every candidate.',
    ],
  },
];

const CLOSING = [
  '{company} is an equal opportunity employer. We celebrate diversity and are committed to creating an inclusive environment for all employees.',
  'We welcome applications from people of all backgrounds. If you need an accommodation during the process, let us know.',
  'Please apply with your CV. We review every application and will get back to you within two weeks.',
  'Even if you do not meet every requirement, we encourage you to apply.',
];

interface Lang {
  intro: string[];
  role: string[];
  duties: string[];
  reqs: string[];
  headings: [string, string, string, string, string];
  edu: Record<string, string>;
  closing: string[];
  visaYes: string;
  visaNo: string;
  remote: string;
}

const LANGS: Record<'de' | 'fr' | 'es', Lang> = {
  de: {
    intro: [
      'Wir suchen zum nächstmöglichen Zeitpunkt einen {title}{where} für unser Team {department}.',
      'Verstärke {company} als {title}{where} und gestalte mit uns die Zukunft.',
      '{company} wächst und sucht Unterstützung: Werde Teil unseres Teams als {title}{where}.',
    ],
    role: [
      'Dich erwartet ein motiviertes Team, flache Hierarchien und viel Raum für eigene Ideen.',
      'Du arbeitest eng mit Kolleginnen und Kollegen aus verschiedenen Bereichen zusammen.',
      'Bei uns übernimmst du vom ersten Tag an Verantwortung.',
    ],
    duties: [
      'Du übernimmst eigenverantwortlich Aufgaben im Bereich {department}',
      'Du arbeitest mit {skill1} und {skill2} und entwickelst unsere Prozesse weiter',
      'Du stimmst dich eng mit internen und externen Partnern ab',
      'Du dokumentierst Ergebnisse und berichtest an die Teamleitung',
      'Du sorgst für hohe Qualität und die Einhaltung aller Vorgaben',
      'Du unterstützt neue Kolleginnen und Kollegen bei der Einarbeitung',
      'Du bringst eigene Ideen zur Verbesserung ein',
    ],
    reqs: [
      'Mindestens {years} Jahre Berufserfahrung als {title} oder in einer vergleichbaren Position',
      'Sehr gute Kenntnisse in {skill1}, idealerweise auch in {skill2}',
      'Sehr gute Deutschkenntnisse und gute Englischkenntnisse',
      'Eine strukturierte und selbstständige Arbeitsweise',
      'Teamfähigkeit, Zuverlässigkeit und Kommunikationsstärke',
      'Erfahrung mit {skill3} ist ein Plus',
    ],
    headings: [
      'Über die Stelle',
      'Deine Aufgaben',
      'Dein Profil',
      'Was wir bieten',
      'Wir freuen uns auf dich',
    ],
    edu: {
      'high school': 'Abgeschlossene Schulausbildung',
      'professional certificate': 'Abgeschlossene Berufsausbildung oder entsprechende Zertifizierung',
      'associate degree': 'Abgeschlossene Ausbildung oder Fachhochschulreife',
      'bachelor degree': 'Abgeschlossenes Studium (Bachelor) oder eine vergleichbare Qualifikation',
      'postgraduate degree': 'Abgeschlossenes Master- oder Promotionsstudium',
    },
    closing: [
      'Wir freuen uns auf deine Bewerbung mit Angabe deines frühestmöglichen Eintrittstermins und deiner Gehaltsvorstellung.',
      '{company} steht für Vielfalt und Chancengleichheit. Wir freuen uns über alle Bewerbungen.',
    ],
    visaYes: 'Visa sponsorship available: wir unterstützen dich beim Visum und beim Umzug.',
    visaNo: 'We are unable to sponsor visas: eine gültige Arbeitserlaubnis ist Voraussetzung.',
    remote: 'Die Stelle kann vollständig remote besetzt werden.',
  },
  fr: {
    intro: [
      '{company} recrute un {title}{where} pour renforcer son équipe {department}.',
      'Rejoignez {company} en tant que {title}{where} et participez à notre croissance.',
      'Dans le cadre de notre développement, nous recherchons un {title}{where}.',
    ],
    role: [
      'Vous rejoindrez une équipe dynamique et bienveillante, avec de vraies perspectives d’évolution.',
      'Vous travaillerez en étroite collaboration avec les équipes opérationnelles.',
      'Nous attachons une grande importance à l’autonomie et à l’esprit d’équipe.',
    ],
    duties: [
      'Prendre en charge les missions du pôle {department}',
      'Utiliser {skill1} et {skill2} au quotidien pour améliorer nos processus',
      'Assurer le suivi des projets et le reporting auprès de la direction',
      'Travailler en lien avec nos partenaires internes et externes',
      'Garantir la qualité et le respect des procédures',
      'Participer à l’intégration des nouveaux collaborateurs',
    ],
    reqs: [
      'Vous avez au moins {years} ans d’expérience sur un poste similaire',
      'Vous maîtrisez {skill1} et idéalement {skill2}',
      'Vous êtes rigoureux, autonome et doté d’un bon relationnel',
      'Un bon niveau d’anglais est apprécié',
      'Une expérience avec {skill3} serait un plus',
    ],
    headings: [
      'Le poste',
      'Vos missions',
      'Votre profil',
      'Ce que nous offrons',
      'Envie de nous rejoindre ?',
    ],
    edu: {
      'high school': 'Baccalauréat ou équivalent',
      'professional certificate': 'CAP, BEP ou certification professionnelle',
      'associate degree': 'Formation Bac+2 (BTS, DUT)',
      'bachelor degree': 'Formation Bac+3 à Bac+5 dans le domaine',
      'postgraduate degree': 'Diplôme Bac+5 ou doctorat',
    },
    closing: [
      'Envoyez-nous votre candidature, nous vous répondrons rapidement.',
      '{company} s’engage en faveur de la diversité et de l’égalité des chances.',
    ],
    visaYes: 'Visa sponsorship available : nous accompagnons les démarches de visa.',
    visaNo: 'We are unable to sponsor visas : une autorisation de travail est requise.',
    remote: 'Ce poste est ouvert au télétravail complet.',
  },
  es: {
    intro: [
      '{company} busca un {title}{where} para incorporarse a su equipo de {department}.',
      'Únete a {company} como {title}{where} y crece con nosotros.',
      'En {company} estamos buscando un {title}{where}.',
    ],
    role: [
      'Formarás parte de un equipo dinámico con muchas oportunidades de desarrollo.',
      'Trabajarás en estrecha colaboración con otros departamentos.',
      'Valoramos la iniciativa, la responsabilidad y el trabajo en equipo.',
    ],
    duties: [
      'Gestionar las tareas diarias del área de {department}',
      'Trabajar con {skill1} y {skill2} para mejorar nuestros procesos',
      'Elaborar informes y hacer seguimiento de los objetivos',
      'Coordinarte con clientes y proveedores',
      'Asegurar la calidad y el cumplimiento de los procedimientos',
      'Apoyar la formación de nuevos compañeros',
    ],
    reqs: [
      'Experiencia mínima de {years} años en un puesto similar',
      'Conocimientos sólidos de {skill1} y {skill2}',
      'Capacidad de organización y atención al detalle',
      'Buen nivel de inglés',
      'Se valorará experiencia con {skill3}',
    ],
    headings: ['Sobre el puesto', 'Funciones', 'Requisitos', 'Qué ofrecemos', '¿Te interesa?'],
    edu: {
      'high school': 'Bachillerato o equivalente',
      'professional certificate': 'Formación profesional o certificado de profesionalidad',
      'associate degree': 'Ciclo formativo de grado superior',
      'bachelor degree': 'Grado universitario en un área relacionada',
      'postgraduate degree': 'Máster o doctorado',
    },
    closing: [
      'Si te interesa, envíanos tu candidatura. ¡Te estamos esperando!',
      '{company} es una empresa comprometida con la igualdad de oportunidades.',
    ],
    visaYes: 'Visa sponsorship available: ofrecemos apoyo con el visado.',
    visaNo: 'We are unable to sponsor visas: se requiere permiso de trabajo.',
    remote: 'Este puesto es 100% remoto.',
  },
};

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function fill(tpl: string, ctx: TextContext, where: string): string {
  const sk = ctx.skills;
  return tpl
    .replace(/\{company\}/g, ctx.company)
    .replace(/\{title\}/g, ctx.title)
    .replace(/\{department\}/g, ctx.department)
    .replace(/\{years\}/g, String(ctx.years))
    .replace(/\{where\}/g, where)
    .replace(
      /\{skill(\d)\}/g,
      (_m, d: string) => sk[(Number(d) - 1) % Math.max(1, sk.length)] ?? 'modern tools',
    );
}

function ul(items: string[]): string {
  return `<ul>${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;
}

/** Description HTML, 1–6 KB. */
export function description(rng: Rng, ctx: TextContext, lang: string): string {
  const parts: string[] = [];
  const l = lang === 'de' || lang === 'fr' || lang === 'es' ? LANGS[lang] : null;
  if (l) {
    const where = ctx.city ? ` in ${ctx.city}` : '';
    const f = (t: string) =>
      fill(
        t,
        ctx,
        lang === 'fr'
          ? ctx.city
            ? ` à ${ctx.city}`
            : ''
          : lang === 'es'
            ? ctx.city
              ? ` en ${ctx.city}`
              : ''
            : where,
      );
    parts.push(`<h3>${l.headings[0]}</h3><p>${esc(f(rng.pick(l.intro)))} ${esc(f(rng.pick(l.role)))}</p>`);
    if (ctx.remote) parts.push(`<p>${esc(l.remote)}</p>`);
    parts.push(`<h3>${l.headings[1]}</h3>${ul(rng.sample(l.duties, rng.int(4, 6)).map(f))}`);
    const reqs = rng.sample(l.reqs, rng.int(3, 5)).map(f);
    if (ctx.education) reqs.unshift(l.edu[ctx.education]);
    parts.push(`<h3>${l.headings[2]}</h3>${ul(reqs)}`);
    if (ctx.benefits.length) parts.push(`<h3>${l.headings[3]}</h3>${ul(ctx.benefits)}`);
    parts.push(`<h3>${l.headings[4]}</h3><p>${esc(f(rng.pick(l.closing)))}</p>`);
    if (ctx.visa !== null) parts.push(`<p>${esc(ctx.visa ? l.visaYes : l.visaNo)}</p>`);
    return parts.join('\n');
  }
  const where = ctx.remote ? ` (remote, ${ctx.country})` : ctx.city ? ` in ${ctx.city}` : '';
  const f = (t: string) => fill(t, ctx, where);
  const about = `${ctx.company} ${rng.pick([
    'builds products that millions of people rely on every day.',
    'is a fast-growing company with offices across several countries.',
    'has served customers for more than twenty years and keeps reinventing how it works.',
    'is on a mission to make work simpler, fairer and more productive.',
    'is a values-driven employer recognised for its culture and benefits.',
  ])}`;
  parts.push(`<h3>About ${esc(ctx.company)}</h3><p>${esc(about)} ${esc(f(rng.pick(INTRO)))}</p>`);
  parts.push(
    `<h3>The role</h3><p>${rng
      .sample(ROLE, rng.int(2, 4))
      .map((s) => esc(f(s)))
      .join(' ')}</p>`,
  );
  if (ctx.remote)
    parts.push(`<p>This is a fully remote position open to candidates based in ${esc(ctx.country)}.</p>`);
  parts.push(`<h3>What you will do</h3>${ul(rng.sample(DUTIES[ctx.family], rng.int(4, 7)).map(f))}`);
  const reqs = rng.sample(REQS, rng.int(4, 7)).map(f);
  if (ctx.education) reqs.unshift(EDU[ctx.education]);
  parts.push(`<h3>What we are looking for</h3>${ul(reqs)}`);
  if (rng.chance(0.6)) parts.push(`<h3>Nice to have</h3>${ul(rng.sample(NICE, rng.int(2, 3)).map(f))}`);
  if (ctx.skills.length) parts.push(`<p>Our stack and tools: ${esc(ctx.skills.join(', '))}.</p>`);
  if (ctx.benefits.length) parts.push(`<h3>What we offer</h3>${ul(ctx.benefits)}`);
  // Length varies: a quarter add nothing, a few add almost every extra section.
  const extras = rng.sample(EXTRA, Math.floor(rng.next() ** 1.5 * (EXTRA.length + 1)));
  for (const e of extras) {
    const ps = rng.sample(e.paragraphs, rng.int(1, e.paragraphs.length));
    parts.push(`<h3>${e.heading}</h3>${ps.map((p) => `<p>${esc(f(p))}</p>`).join('')}`);
  }
  parts.push(`<p>${esc(f(rng.pick(CLOSING)))}</p>`);
  if (ctx.visa === true) parts.push('<p>Visa sponsorship available for this position.</p>');
  else if (ctx.visa === false)
    parts.push(
      '<p>We are unable to sponsor visas for this role; candidates must already be authorised to work in the country.</p>',
    );
  return parts.join('\n');
}

export const BENEFITS: Record<'en' | 'de' | 'fr' | 'es', string[]> = {
  en: [
    'Health, dental and vision insurance',
    '401(k) with company match',
    'Flexible working hours',
    'Generous paid time off',
    'Paid parental leave',
    'Learning and development budget',
    'Home office stipend',
    'Equity in a growing company',
    'Employee discount',
    'Wellness allowance',
    'Commuter benefits',
    'Annual team retreat',
    'Pension scheme',
    'Private medical insurance',
    '25 days holiday plus bank holidays',
  ],
  de: [
    '30 Tage Urlaub',
    'Flexible Arbeitszeiten',
    'Betriebliche Altersvorsorge',
    'Jobrad',
    'Homeoffice-Möglichkeit',
    'Weiterbildungsbudget',
    'Deutschlandticket',
    'Moderne Ausstattung',
  ],
  fr: [
    'Tickets restaurant',
    'Télétravail partiel',
    'Mutuelle prise en charge à 100 %',
    'RTT',
    'Budget formation',
    'Prime annuelle',
    'Comité d’entreprise',
  ],
  es: [
    'Seguro médico privado',
    'Horario flexible',
    'Teletrabajo parcial',
    'Formación continua',
    'Ticket restaurante',
    'Jornada intensiva en verano',
    '23 días de vacaciones',
  ],
};
