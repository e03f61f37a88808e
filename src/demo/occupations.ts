// Occupations the titles are built from: the base title (with German, French and Spanish forms where
// postings in those languages are common), the taxonomies and skills that fit it, a US pay level, and the
// department. Weights follow the mix of online postings: software and sales lead, then healthcare,
// operations, finance, and a long tail of trades, hospitality and education.

export type Family =
  | 'software'
  | 'data'
  | 'it'
  | 'design'
  | 'product'
  | 'marketing'
  | 'sales'
  | 'support'
  | 'finance'
  | 'hr'
  | 'legal'
  | 'healthcare'
  | 'education'
  | 'logistics'
  | 'manufacturing'
  | 'trades'
  | 'hospitality'
  | 'admin'
  | 'science'
  | 'security'
  | 'consulting'
  | 'energy';

export interface Occupation {
  title: string;
  family: Family;
  taxonomies: string[];
  skills: string[];
  /** US median annual pay in USD at mid level. */
  pay: number;
  /** Paid by the hour in countries where that is usual. */
  hourly?: boolean;
  weight: number;
  de?: string;
  fr?: string;
  es?: string;
  /** Typical minimum education; null when none is usually asked. */
  edu: string | null;
  /** Seniority words apply (not for e.g. "Warehouse Associate"). */
  levels: boolean;
  /** Specialisations that follow a comma ("Software Engineer, Backend"). */
  specs?: string[];
}

const O = (
  title: string,
  family: Family,
  taxonomies: string[],
  skills: string[],
  pay: number,
  weight: number,
  edu: string | null,
  extra: Partial<Occupation> = {},
): Occupation => ({ title, family, taxonomies, skills, pay, weight, edu, levels: true, ...extra });

const B = 'bachelor degree';
const HS = 'high school';
const PC = 'professional certificate';
const AD = 'associate degree';
const PG = 'postgraduate degree';

export const OCCUPATIONS: Occupation[] = [
  // software
  O('Software Engineer', 'software', ['Software', 'Engineering'], ['python', 'java', 'go', 'typescript', 'aws', 'docker', 'kubernetes', 'postgresql', 'git', 'microservices', 'restapi', 'cicd'], 135000, 9, B, {
    de: 'Softwareentwickler',
    fr: 'Ingénieur logiciel',
    es: 'Ingeniero de software',
    specs: ['Backend', 'Frontend', 'Platform', 'Infrastructure', 'Payments', 'Mobile', 'Growth', 'Search', 'Data Platform', 'Developer Experience'],
  }),
  O('Backend Engineer', 'software', ['Software', 'Engineering'], ['go', 'java', 'python', 'kotlin', 'postgresql', 'redis', 'kafka', 'grpc', 'aws', 'microservices', 'docker'], 140000, 4, B, {
    de: 'Backend-Entwickler',
    fr: 'Développeur back-end',
    es: 'Desarrollador backend',
  }),
  O('Frontend Engineer', 'software', ['Software', 'Engineering'], ['javascript', 'typescript', 'react', 'nextjs', 'css', 'html', 'vue', 'webpack', 'accessibility', 'graphql'], 130000, 3.5, B, {
    de: 'Frontend-Entwickler',
    fr: 'Développeur front-end',
    es: 'Desarrollador frontend',
  }),
  O('Full Stack Developer', 'software', ['Software', 'Engineering'], ['javascript', 'typescript', 'react', 'node', 'postgresql', 'mongodb', 'aws', 'docker', 'restapi', 'graphql'], 120000, 3.5, B, {
    de: 'Fullstack-Entwickler',
    fr: 'Développeur full stack',
    es: 'Desarrollador full stack',
  }),
  O('Mobile Engineer', 'software', ['Software', 'Engineering'], ['swift', 'kotlin', 'ios', 'android', 'reactnative', 'flutter', 'graphql', 'firebase'], 140000, 1.5, B, {
    specs: ['iOS', 'Android'],
  }),
  O('DevOps Engineer', 'software', ['Software', 'Technology'], ['kubernetes', 'terraform', 'aws', 'gcp', 'azure', 'docker', 'linux', 'ansible', 'prometheus', 'jenkins', 'bash'], 135000, 2.5, B, {
    de: 'DevOps Engineer',
    fr: 'Ingénieur DevOps',
    es: 'Ingeniero DevOps',
  }),
  O('Site Reliability Engineer', 'software', ['Software', 'Technology'], ['kubernetes', 'go', 'python', 'prometheus', 'grafana', 'terraform', 'linux', 'aws', 'incidentmanagement'], 150000, 1.2, B),
  O('QA Engineer', 'software', ['Software', 'Engineering'], ['selenium', 'cypress', 'playwright', 'testautomation', 'python', 'java', 'jira', 'postman'], 100000, 1.5, B, {
    de: 'Softwaretester',
    fr: 'Ingénieur QA',
    es: 'Ingeniero de QA',
  }),
  O('Embedded Software Engineer', 'software', ['Software', 'Engineering'], ['c', 'cpp', 'rtos', 'embeddedlinux', 'arm', 'python', 'can', 'firmware'], 130000, 1, B, {
    de: 'Embedded-Softwareentwickler',
  }),
  O('Engineering Manager', 'software', ['Software', 'Management & Leadership'], ['peoplemanagement', 'agile', 'scrum', 'hiring', 'systemdesign', 'aws', 'roadmapping'], 185000, 1.2, B, { levels: false }),
  O('Machine Learning Engineer', 'data', ['Data & Analytics', 'Software'], ['python', 'pytorch', 'tensorflow', 'machinelearning', 'deeplearning', 'mlops', 'kubernetes', 'spark', 'llm', 'nlp'], 165000, 2.5, PG),
  // data
  O('Data Scientist', 'data', ['Data & Analytics', 'Science & Research'], ['python', 'r', 'sql', 'machinelearning', 'statistics', 'pandas', 'scikitlearn', 'abtesting', 'tableau'], 140000, 2.5, PG, {
    de: 'Data Scientist',
    fr: 'Data scientist',
    es: 'Científico de datos',
  }),
  O('Data Engineer', 'data', ['Data & Analytics', 'Software'], ['python', 'sql', 'spark', 'airflow', 'dbt', 'snowflake', 'kafka', 'aws', 'bigquery', 'databricks'], 140000, 2.5, B, {
    de: 'Data Engineer',
    fr: 'Ingénieur data',
    es: 'Ingeniero de datos',
  }),
  O('Data Analyst', 'data', ['Data & Analytics'], ['sql', 'excel', 'tableau', 'powerbi', 'python', 'lookml', 'statistics', 'googleanalytics'], 85000, 3, B, {
    de: 'Datenanalyst',
    fr: 'Analyste de données',
    es: 'Analista de datos',
  }),
  O('Business Intelligence Analyst', 'data', ['Data & Analytics'], ['sql', 'powerbi', 'tableau', 'excel', 'datawarehousing', 'etl', 'dax'], 90000, 1, B),
  // it & security
  O('IT Support Specialist', 'it', ['Technology', 'Customer Service & Support'], ['helpdesk', 'windows', 'activedirectory', 'office365', 'troubleshooting', 'networking', 'itil', 'jamf'], 58000, 2.5, AD, {
    de: 'IT-Supporter',
    fr: 'Technicien support informatique',
    es: 'Técnico de soporte informático',
  }),
  O('Systems Administrator', 'it', ['Technology'], ['linux', 'windowsserver', 'vmware', 'activedirectory', 'bash', 'powershell', 'networking', 'backup'], 88000, 1.5, B, {
    de: 'Systemadministrator',
    fr: 'Administrateur systèmes',
    es: 'Administrador de sistemas',
  }),
  O('Network Engineer', 'it', ['Technology', 'Engineering'], ['cisco', 'networking', 'bgp', 'firewalls', 'ccna', 'sdwan', 'tcpip', 'juniper'], 105000, 1, B),
  O('Security Engineer', 'security', ['Technology', 'Security & Safety'], ['cybersecurity', 'siem', 'penetrationtesting', 'aws', 'iam', 'python', 'soc2', 'threatmodeling', 'splunk'], 150000, 1.5, B, {
    specs: ['Application Security', 'Cloud Security', 'Detection & Response'],
  }),
  O('Security Officer', 'security', ['Security & Safety'], ['patrolling', 'cctv', 'accesscontrol', 'incidentreporting', 'firstaid', 'customerservice'], 38000, 1.5, HS, {
    hourly: true,
    levels: false,
    de: 'Sicherheitsmitarbeiter',
    fr: 'Agent de sécurité',
    es: 'Vigilante de seguridad',
  }),
  // design & product
  O('Product Designer', 'design', ['Art & Design', 'Technology'], ['figma', 'prototyping', 'userresearch', 'designsystems', 'interactiondesign', 'usability', 'sketch'], 130000, 2, B, {
    de: 'Produktdesigner',
    fr: 'Product designer',
    es: 'Diseñador de producto',
  }),
  O('UX Researcher', 'design', ['Art & Design', 'Science & Research'], ['userresearch', 'usability', 'surveys', 'interviewing', 'figma', 'dovetail', 'qualitativeresearch'], 125000, 0.6, B),
  O('Graphic Designer', 'design', ['Art & Design', 'Creative & Media'], ['adobecreativesuite', 'photoshop', 'illustrator', 'indesign', 'branding', 'typography', 'figma'], 60000, 1.5, B, {
    de: 'Grafikdesigner',
    fr: 'Graphiste',
    es: 'Diseñador gráfico',
  }),
  O('Product Manager', 'product', ['Technology', 'Management & Leadership'], ['productmanagement', 'roadmapping', 'agile', 'jira', 'sql', 'abtesting', 'userresearch', 'stakeholdermanagement'], 150000, 3, B, {
    de: 'Produktmanager',
    fr: 'Chef de produit',
    es: 'Product manager',
  }),
  O('Project Manager', 'product', ['Management & Leadership', 'Consulting'], ['projectmanagement', 'pmp', 'agile', 'scrum', 'msproject', 'jira', 'budgeting', 'stakeholdermanagement', 'riskmanagement'], 100000, 3, B, {
    de: 'Projektmanager',
    fr: 'Chef de projet',
    es: 'Jefe de proyecto',
  }),
  // marketing & media
  O('Marketing Manager', 'marketing', ['Marketing', 'Management & Leadership'], ['digitalmarketing', 'hubspot', 'seo', 'sem', 'googleanalytics', 'contentmarketing', 'campaignmanagement', 'marketingautomation'], 110000, 2.5, B, {
    levels: false,
    de: 'Marketing Manager',
    fr: 'Responsable marketing',
    es: 'Responsable de marketing',
  }),
  O('Digital Marketing Specialist', 'marketing', ['Marketing'], ['seo', 'sem', 'googleads', 'socialmedia', 'googleanalytics', 'emailmarketing', 'copywriting', 'meta'], 65000, 2, B, {
    de: 'Online-Marketing-Manager',
    fr: 'Chargé de marketing digital',
    es: 'Especialista en marketing digital',
  }),
  O('Content Writer', 'marketing', ['Marketing', 'Creative & Media'], ['copywriting', 'seo', 'contentstrategy', 'wordpress', 'editing', 'storytelling'], 60000, 1, B, {
    fr: 'Rédacteur web',
    es: 'Redactor de contenidos',
  }),
  O('Social Media Manager', 'marketing', ['Marketing', 'Creative & Media'], ['socialmedia', 'instagram', 'tiktok', 'contentcreation', 'canva', 'communitymanagement', 'analytics'], 65000, 1, B, { levels: false }),
  O('Video Producer', 'marketing', ['Creative & Media', 'Art & Design'], ['videoediting', 'premierepro', 'aftereffects', 'storytelling', 'cinematography', 'davinciresolve'], 70000, 0.5, B),
  // sales
  O('Account Executive', 'sales', ['Sales'], ['salesforce', 'b2bsales', 'saas', 'negotiation', 'pipelinemanagement', 'prospecting', 'crm', 'forecasting'], 95000, 5, B, {
    de: 'Account Executive',
    fr: 'Commercial grands comptes',
    es: 'Ejecutivo de cuentas',
    specs: ['Mid-Market', 'Enterprise', 'SMB', 'Public Sector', 'EMEA'],
  }),
  O('Sales Development Representative', 'sales', ['Sales'], ['coldcalling', 'prospecting', 'salesforce', 'outreach', 'crm', 'linkedinsalesnavigator', 'leadgeneration'], 60000, 2.5, B, {
    levels: false,
    de: 'Sales Development Representative',
    fr: 'Business developer',
    es: 'Representante de desarrollo de ventas',
  }),
  O('Account Manager', 'sales', ['Sales', 'Customer Service & Support'], ['accountmanagement', 'crm', 'upselling', 'negotiation', 'salesforce', 'customerrelationship'], 80000, 2.5, B, {
    de: 'Key Account Manager',
    fr: 'Chargé de clientèle',
    es: 'Gestor de cuentas',
  }),
  O('Sales Associate', 'sales', ['Sales', 'Customer Service & Support'], ['retail', 'pos', 'customerservice', 'merchandising', 'cashhandling', 'upselling'], 32000, 3, HS, {
    hourly: true,
    levels: false,
    de: 'Verkäufer',
    fr: 'Vendeur',
    es: 'Dependiente',
  }),
  O('Store Manager', 'sales', ['Sales', 'Management & Leadership'], ['retail', 'peoplemanagement', 'scheduling', 'inventorymanagement', 'pnl', 'merchandising', 'customerservice'], 60000, 1.5, HS, {
    levels: false,
    de: 'Filialleiter',
    fr: 'Responsable de magasin',
    es: 'Encargado de tienda',
  }),
  O('Solutions Engineer', 'sales', ['Sales', 'Technology'], ['presales', 'demos', 'apis', 'sql', 'saas', 'solutionarchitecture', 'python'], 140000, 1.2, B),
  // support
  O('Customer Success Manager', 'support', ['Customer Service & Support', 'Sales'], ['customersuccess', 'gainsight', 'onboarding', 'churnreduction', 'saas', 'salesforce', 'accountmanagement'], 85000, 2.5, B, {
    de: 'Customer Success Manager',
    fr: 'Customer success manager',
    es: 'Customer success manager',
  }),
  O('Customer Service Representative', 'support', ['Customer Service & Support'], ['customerservice', 'zendesk', 'callcenter', 'dataentry', 'communication', 'crm', 'problemsolving'], 38000, 4, HS, {
    hourly: true,
    levels: false,
    de: 'Kundenberater',
    fr: 'Conseiller clientèle',
    es: 'Agente de atención al cliente',
  }),
  O('Technical Support Engineer', 'support', ['Customer Service & Support', 'Technology'], ['troubleshooting', 'sql', 'linux', 'apis', 'zendesk', 'jira', 'networking', 'scripting'], 75000, 1.5, B),
  // finance
  O('Accountant', 'finance', ['Finance & Accounting'], ['accounting', 'gaap', 'ifrs', 'excel', 'quickbooks', 'sap', 'reconciliation', 'taxpreparation', 'cpa'], 75000, 3, B, {
    de: 'Buchhalter',
    fr: 'Comptable',
    es: 'Contable',
  }),
  O('Financial Analyst', 'finance', ['Finance & Accounting', 'Data & Analytics'], ['financialmodeling', 'excel', 'fpa', 'forecasting', 'budgeting', 'sql', 'powerbi', 'valuation'], 85000, 2, B, {
    de: 'Finanzanalyst',
    fr: 'Analyste financier',
    es: 'Analista financiero',
  }),
  O('Controller', 'finance', ['Finance & Accounting', 'Management & Leadership'], ['accounting', 'gaap', 'monthendclose', 'netsuite', 'audit', 'ifrs', 'excel', 'internalcontrols'], 130000, 0.8, B, {
    levels: false,
    de: 'Controller',
    fr: 'Contrôleur de gestion',
    es: 'Controller financiero',
  }),
  O('Bookkeeper', 'finance', ['Finance & Accounting', 'Administrative'], ['bookkeeping', 'quickbooks', 'xero', 'accountspayable', 'accountsreceivable', 'excel', 'payroll'], 48000, 1, AD, { hourly: true, levels: false }),
  O('Payroll Specialist', 'finance', ['Finance & Accounting', 'Human Resources'], ['payroll', 'adp', 'workday', 'excel', 'compliance', 'taxes'], 60000, 0.6, AD, { de: 'Lohnbuchhalter' }),
  // hr
  O('Recruiter', 'hr', ['Human Resources'], ['recruiting', 'sourcing', 'greenhouse', 'linkedinrecruiter', 'interviewing', 'ats', 'employerbranding'], 75000, 2, B, {
    de: 'Recruiter',
    fr: 'Chargé de recrutement',
    es: 'Reclutador',
    specs: ['Technical', 'Go-To-Market', 'University'],
  }),
  O('HR Business Partner', 'hr', ['Human Resources', 'Management & Leadership'], ['employeerelations', 'performancemanagement', 'hris', 'workday', 'employmentlaw', 'coaching', 'orgdesign'], 105000, 1.2, B, {
    levels: false,
    de: 'HR Business Partner',
    fr: 'Responsable RH',
    es: 'HR business partner',
  }),
  O('HR Generalist', 'hr', ['Human Resources'], ['hris', 'onboarding', 'benefitsadministration', 'employeerelations', 'payroll', 'compliance'], 65000, 0.8, B, {
    de: 'Personalreferent',
    fr: 'Chargé RH',
    es: 'Técnico de recursos humanos',
  }),
  // legal
  O('Corporate Counsel', 'legal', ['Legal'], ['contractlaw', 'corporatelaw', 'compliance', 'privacy', 'gdpr', 'negotiation', 'litigation'], 175000, 0.8, PG, { levels: false }),
  O('Paralegal', 'legal', ['Legal', 'Administrative'], ['legalresearch', 'documentreview', 'litigation', 'ediscovery', 'contractmanagement', 'clio'], 60000, 0.8, AD, {
    es: 'Asistente legal',
  }),
  O('Compliance Analyst', 'legal', ['Legal', 'Finance & Accounting'], ['compliance', 'aml', 'kyc', 'riskassessment', 'regulatoryreporting', 'audit', 'excel'], 80000, 0.8, B, {
    de: 'Compliance-Referent',
  }),
  // healthcare
  O('Registered Nurse', 'healthcare', ['Healthcare'], ['patientcare', 'bls', 'acls', 'epic', 'ehr', 'medicationadministration', 'triage', 'iv'], 90000, 5, B, {
    hourly: true,
    levels: false,
    de: 'Gesundheits- und Krankenpfleger',
    fr: 'Infirmier',
    es: 'Enfermero',
    specs: ['ICU', 'Med/Surg', 'Emergency Department', 'Labor & Delivery', 'Night Shift', 'Oncology', 'Telemetry'],
  }),
  O('Medical Assistant', 'healthcare', ['Healthcare'], ['patientcare', 'vitals', 'phlebotomy', 'ehr', 'scheduling', 'emr', 'bls'], 40000, 2, PC, {
    hourly: true,
    levels: false,
    de: 'Medizinischer Fachangestellter',
    es: 'Auxiliar de enfermería',
  }),
  O('Physical Therapist', 'healthcare', ['Healthcare'], ['physicaltherapy', 'rehabilitation', 'patientcare', 'orthopedics', 'manualtherapy', 'ehr'], 98000, 1, PG, {
    levels: false,
    de: 'Physiotherapeut',
    fr: 'Kinésithérapeute',
    es: 'Fisioterapeuta',
  }),
  O('Pharmacist', 'healthcare', ['Healthcare', 'Science & Research'], ['pharmacy', 'medicationtherapy', 'patientcounseling', 'compounding', 'pharmacology'], 130000, 0.8, PG, {
    levels: false,
    de: 'Apotheker',
    fr: 'Pharmacien',
    es: 'Farmacéutico',
  }),
  O('Caregiver', 'healthcare', ['Healthcare', 'Social Services'], ['personalcare', 'companionship', 'mealpreparation', 'firstaid', 'cpr', 'medicationreminders'], 32000, 2, HS, {
    hourly: true,
    levels: false,
    de: 'Pflegehelfer',
    fr: 'Aide-soignant',
    es: 'Cuidador',
  }),
  O('Physician', 'healthcare', ['Healthcare'], ['patientcare', 'diagnosis', 'ehr', 'epic', 'internalmedicine', 'telemedicine'], 260000, 0.8, PG, {
    levels: false,
    de: 'Assistenzarzt',
    fr: 'Médecin',
    es: 'Médico',
    specs: ['Family Medicine', 'Internal Medicine', 'Emergency Medicine', 'Psychiatry'],
  }),
  O('Social Worker', 'healthcare', ['Social Services', 'Healthcare'], ['casemanagement', 'crisisintervention', 'counseling', 'advocacy', 'documentation'], 58000, 0.8, PG, {
    levels: false,
    de: 'Sozialarbeiter',
    fr: 'Travailleur social',
    es: 'Trabajador social',
  }),
  // education
  O('Teacher', 'education', ['Education'], ['teaching', 'lessonplanning', 'classroommanagement', 'curriculumdevelopment', 'differentiatedinstruction', 'assessment'], 60000, 2, B, {
    levels: false,
    de: 'Lehrer',
    fr: 'Enseignant',
    es: 'Profesor',
    specs: ['Mathematics', 'English', 'Science', 'Special Education', 'Early Childhood'],
  }),
  O('Instructional Designer', 'education', ['Education', 'Creative & Media'], ['instructionaldesign', 'articulate', 'lms', 'elearning', 'curriculumdevelopment', 'addie'], 78000, 0.6, B),
  O('Tutor', 'education', ['Education'], ['tutoring', 'mathematics', 'english', 'testprep', 'communication'], 40000, 0.6, B, { hourly: true, levels: false, es: 'Tutor académico' }),
  // logistics & transport
  O('Warehouse Associate', 'logistics', ['Logistics', 'Manufacturing'], ['forklift', 'picking', 'packing', 'inventorymanagement', 'shipping', 'rfscanner', 'safety'], 36000, 4, null, {
    hourly: true,
    levels: false,
    de: 'Lagerhelfer',
    fr: 'Préparateur de commandes',
    es: 'Mozo de almacén',
  }),
  O('Delivery Driver', 'logistics', ['Transportation', 'Logistics'], ['driving', 'cdl', 'routeplanning', 'customerservice', 'safety', 'dot'], 42000, 3, HS, {
    hourly: true,
    levels: false,
    de: 'Auslieferungsfahrer',
    fr: 'Chauffeur livreur',
    es: 'Repartidor',
  }),
  O('Truck Driver', 'logistics', ['Transportation'], ['cdl', 'classa', 'dot', 'logbook', 'safety', 'hazmat'], 62000, 2, HS, {
    levels: false,
    de: 'Berufskraftfahrer',
    fr: 'Chauffeur poids lourd',
    es: 'Conductor de camión',
    specs: ['CDL-A', 'OTR', 'Regional', 'Local'],
  }),
  O('Supply Chain Analyst', 'logistics', ['Logistics', 'Data & Analytics'], ['supplychain', 'excel', 'sap', 'forecasting', 'inventorymanagement', 'sql', 'procurement'], 75000, 1.2, B, {
    de: 'Supply Chain Analyst',
    fr: 'Analyste supply chain',
    es: 'Analista de cadena de suministro',
  }),
  O('Logistics Coordinator', 'logistics', ['Logistics', 'Administrative'], ['logistics', 'freight', 'tms', 'sap', 'scheduling', 'customs', 'excel'], 52000, 1.2, AD, {
    de: 'Disponent',
    fr: 'Coordinateur logistique',
    es: 'Coordinador de logística',
  }),
  // manufacturing & engineering
  O('Mechanical Engineer', 'manufacturing', ['Engineering', 'Manufacturing'], ['solidworks', 'autocad', 'gdt', 'fea', 'cad', 'prototyping', 'matlab', 'dfm'], 95000, 2, B, {
    de: 'Maschinenbauingenieur',
    fr: 'Ingénieur mécanique',
    es: 'Ingeniero mecánico',
  }),
  O('Electrical Engineer', 'manufacturing', ['Engineering', 'Energy'], ['pcbdesign', 'altium', 'circuitdesign', 'plc', 'matlab', 'powerelectronics', 'autocad'], 105000, 1.2, B, {
    de: 'Elektroingenieur',
    fr: 'Ingénieur électricien',
    es: 'Ingeniero eléctrico',
  }),
  O('Production Operator', 'manufacturing', ['Manufacturing'], ['machineoperation', 'qualitycontrol', 'lean', 'gmp', 'safety', 'assembly'], 38000, 2.5, HS, {
    hourly: true,
    levels: false,
    de: 'Produktionsmitarbeiter',
    fr: 'Opérateur de production',
    es: 'Operario de producción',
  }),
  O('Quality Engineer', 'manufacturing', ['Engineering', 'Manufacturing'], ['qualityassurance', 'iso9001', 'sixsigma', 'rootcauseanalysis', 'spc', 'capa', 'lean'], 90000, 1, B, {
    de: 'Qualitätsingenieur',
    fr: 'Ingénieur qualité',
    es: 'Ingeniero de calidad',
  }),
  O('Maintenance Technician', 'trades', ['Trades', 'Manufacturing'], ['preventivemaintenance', 'electrical', 'hydraulics', 'pneumatics', 'plc', 'troubleshooting', 'welding'], 55000, 2, HS, {
    hourly: true,
    levels: false,
    de: 'Instandhaltungstechniker',
    fr: 'Technicien de maintenance',
    es: 'Técnico de mantenimiento',
  }),
  // trades & construction
  O('Electrician', 'trades', ['Trades', 'Construction'], ['electrical', 'nec', 'conduit', 'troubleshooting', 'blueprints', 'wiring', 'osha'], 60000, 1.5, PC, {
    hourly: true,
    levels: false,
    de: 'Elektriker',
    fr: 'Électricien',
    es: 'Electricista',
  }),
  O('HVAC Technician', 'trades', ['Trades', 'Construction'], ['hvac', 'refrigeration', 'epa608', 'troubleshooting', 'ductwork', 'customerservice'], 55000, 1, PC, { hourly: true, levels: false }),
  O('Plumber', 'trades', ['Trades', 'Construction'], ['plumbing', 'pipefitting', 'blueprints', 'troubleshooting', 'backflow'], 58000, 0.8, PC, {
    hourly: true,
    levels: false,
    de: 'Anlagenmechaniker SHK',
    fr: 'Plombier',
    es: 'Fontanero',
  }),
  O('Construction Project Manager', 'trades', ['Construction', 'Management & Leadership'], ['constructionmanagement', 'procore', 'scheduling', 'budgeting', 'osha', 'subcontractormanagement', 'blueprints'], 105000, 1.2, B, {
    levels: false,
    de: 'Bauleiter',
    fr: 'Conducteur de travaux',
    es: 'Jefe de obra',
  }),
  O('Civil Engineer', 'trades', ['Engineering', 'Construction'], ['autocad', 'civil3d', 'structuralanalysis', 'surveying', 'revit', 'stormwater'], 90000, 1, B, {
    de: 'Bauingenieur',
    fr: 'Ingénieur génie civil',
    es: 'Ingeniero civil',
  }),
  // hospitality
  O('Line Cook', 'hospitality', ['Hospitality'], ['cooking', 'foodsafety', 'foodprep', 'knifeskills', 'servsafe', 'teamwork'], 34000, 2, null, {
    hourly: true,
    levels: false,
    de: 'Koch',
    fr: 'Commis de cuisine',
    es: 'Cocinero',
  }),
  O('Server', 'hospitality', ['Hospitality', 'Customer Service & Support'], ['customerservice', 'pos', 'foodsafety', 'upselling', 'cashhandling', 'teamwork'], 30000, 1.5, null, {
    hourly: true,
    levels: false,
    de: 'Servicekraft',
    fr: 'Serveur',
    es: 'Camarero',
  }),
  O('Hotel Front Desk Agent', 'hospitality', ['Hospitality', 'Customer Service & Support'], ['customerservice', 'opera', 'reservations', 'cashhandling', 'multilingual', 'pms'], 33000, 1, HS, {
    hourly: true,
    levels: false,
    de: 'Rezeptionist',
    fr: 'Réceptionniste',
    es: 'Recepcionista de hotel',
  }),
  O('Restaurant Manager', 'hospitality', ['Hospitality', 'Management & Leadership'], ['restaurantmanagement', 'foodsafety', 'scheduling', 'pnl', 'inventorymanagement', 'peoplemanagement'], 58000, 1, HS, {
    levels: false,
    de: 'Restaurantleiter',
    fr: 'Directeur de restaurant',
    es: 'Gerente de restaurante',
  }),
  // admin
  O('Administrative Assistant', 'admin', ['Administrative'], ['msoffice', 'scheduling', 'dataentry', 'calendarmanagement', 'excel', 'communication', 'filing'], 45000, 2.5, HS, {
    hourly: true,
    levels: false,
    de: 'Sachbearbeiter',
    fr: 'Assistant administratif',
    es: 'Auxiliar administrativo',
  }),
  O('Executive Assistant', 'admin', ['Administrative'], ['calendarmanagement', 'travelcoordination', 'msoffice', 'gsuite', 'confidentiality', 'eventplanning'], 70000, 1, B, {
    levels: false,
    de: 'Assistenz der Geschäftsführung',
    fr: 'Assistant de direction',
    es: 'Asistente de dirección',
  }),
  O('Office Manager', 'admin', ['Administrative', 'Management & Leadership'], ['officemanagement', 'vendormanagement', 'budgeting', 'msoffice', 'eventplanning', 'facilities'], 60000, 1, HS, {
    levels: false,
    de: 'Office Manager',
    fr: "Office manager",
    es: 'Office manager',
  }),
  // science
  O('Research Scientist', 'science', ['Science & Research'], ['labtechniques', 'pcr', 'cellculture', 'dataanalysis', 'python', 'statistics', 'elisa', 'flowcytometry'], 115000, 1.2, PG, {
    de: 'Wissenschaftlicher Mitarbeiter',
    fr: 'Chercheur',
    es: 'Investigador científico',
    specs: ['Immunology', 'Computational Biology', 'Chemistry', 'Machine Learning'],
  }),
  O('Laboratory Technician', 'science', ['Science & Research', 'Healthcare'], ['labtechniques', 'pipetting', 'gmp', 'qualitycontrol', 'hplc', 'sampleprep', 'lims'], 48000, 1.2, AD, {
    hourly: true,
    levels: false,
    de: 'Chemielaborant',
    fr: 'Technicien de laboratoire',
    es: 'Técnico de laboratorio',
  }),
  O('Clinical Research Associate', 'science', ['Science & Research', 'Healthcare'], ['clinicaltrials', 'gcp', 'monitoring', 'ctms', 'regulatorycompliance', 'sitemanagement'], 90000, 0.8, B),
  // consulting
  O('Management Consultant', 'consulting', ['Consulting', 'Management & Leadership'], ['strategy', 'powerpoint', 'excel', 'financialmodeling', 'stakeholdermanagement', 'problemsolving'], 120000, 1, B, {
    de: 'Unternehmensberater',
    fr: 'Consultant en stratégie',
    es: 'Consultor de estrategia',
  }),
  O('Business Analyst', 'consulting', ['Consulting', 'Data & Analytics'], ['requirementsgathering', 'sql', 'jira', 'processmapping', 'excel', 'uml', 'stakeholdermanagement'], 90000, 2, B, {
    de: 'Business Analyst',
    fr: 'Business analyst',
    es: 'Analista de negocio',
  }),
  O('SAP Consultant', 'consulting', ['Consulting', 'Technology'], ['sap', 's4hana', 'abap', 'fico', 'mm', 'sd', 'integration'], 110000, 0.8, B, {
    de: 'SAP-Berater',
    fr: 'Consultant SAP',
    es: 'Consultor SAP',
  }),
  // energy & agriculture
  O('Solar Installer', 'energy', ['Energy', 'Trades'], ['solarinstallation', 'electrical', 'roofing', 'osha', 'powertools', 'nabcep'], 48000, 0.6, HS, {
    hourly: true,
    levels: false,
    de: 'Solarteur',
    es: 'Instalador solar',
  }),
  O('Energy Analyst', 'energy', ['Energy', 'Data & Analytics'], ['energymodeling', 'excel', 'python', 'sql', 'renewables', 'marketanalysis'], 85000, 0.5, B),
  O('Farm Worker', 'energy', ['Agriculture'], ['harvesting', 'equipmentoperation', 'irrigation', 'livestock', 'physicalstamina'], 32000, 0.6, null, {
    hourly: true,
    levels: false,
    de: 'Landwirtschaftlicher Mitarbeiter',
    fr: 'Ouvrier agricole',
    es: 'Peón agrícola',
  }),
  O('Agronomist', 'energy', ['Agriculture', 'Science & Research'], ['agronomy', 'soilscience', 'cropmanagement', 'gis', 'precisionagriculture'], 72000, 0.3, B, { levels: false }),
];

/** Department names by family, as ATS boards show them. */
export const DEPARTMENTS: Record<Family, string[]> = {
  software: ['Engineering', 'Research & Development', 'Product Engineering', 'Platform'],
  data: ['Data', 'Engineering', 'Analytics', 'Research & Development'],
  it: ['IT', 'Information Technology', 'Operations'],
  design: ['Design', 'Product', 'Marketing'],
  product: ['Product', 'Product Management', 'Operations', 'PMO'],
  marketing: ['Marketing', 'Growth', 'Communications', 'Brand'],
  sales: ['Sales', 'Revenue', 'Go-To-Market', 'Retail'],
  support: ['Customer Success', 'Customer Support', 'Operations'],
  finance: ['Finance', 'Accounting', 'Finance & Accounting'],
  hr: ['People', 'Human Resources', 'Talent Acquisition', 'People Operations'],
  legal: ['Legal', 'Legal & Compliance', 'Risk & Compliance'],
  healthcare: ['Nursing', 'Clinical', 'Patient Care', 'Medical Staff'],
  education: ['Education', 'Academics', 'Learning & Development'],
  logistics: ['Operations', 'Logistics', 'Supply Chain', 'Fulfillment'],
  manufacturing: ['Manufacturing', 'Engineering', 'Production', 'Quality'],
  trades: ['Facilities', 'Field Operations', 'Construction', 'Maintenance'],
  hospitality: ['Food & Beverage', 'Front of House', 'Kitchen', 'Guest Services'],
  admin: ['Administration', 'Office of the CEO', 'Operations', 'General & Administrative'],
  science: ['Research', 'R&D', 'Clinical Operations', 'Laboratory'],
  security: ['Security', 'IT Security', 'Facilities'],
  consulting: ['Consulting', 'Professional Services', 'Strategy'],
  energy: ['Operations', 'Field Services', 'Energy Markets'],
};

/** Area names for "Head of …" / "Director of …" titles. */
export const AREAS: Record<Family, string> = {
  software: 'Engineering',
  data: 'Data',
  it: 'IT',
  design: 'Design',
  product: 'Product',
  marketing: 'Marketing',
  sales: 'Sales',
  support: 'Customer Success',
  finance: 'Finance',
  hr: 'People',
  legal: 'Legal',
  healthcare: 'Nursing',
  education: 'Academics',
  logistics: 'Operations',
  manufacturing: 'Manufacturing',
  trades: 'Facilities',
  hospitality: 'Operations',
  admin: 'Administration',
  science: 'Research',
  security: 'Security',
  consulting: 'Consulting',
  energy: 'Operations',
};

/** The industries companies are drawn from, with the families they mostly hire for. */
export const INDUSTRIES: { name: string; weight: number; families: Family[] }[] = [
  { name: 'Software Development', weight: 16, families: ['software', 'data', 'product', 'design', 'sales', 'support', 'marketing'] },
  { name: 'IT Services and IT Consulting', weight: 8, families: ['software', 'it', 'consulting', 'data', 'sales'] },
  { name: 'Financial Services', weight: 6, families: ['finance', 'data', 'software', 'legal', 'sales', 'support'] },
  { name: 'Hospitals and Health Care', weight: 9, families: ['healthcare', 'admin', 'science', 'it'] },
  { name: 'Retail', weight: 6, families: ['sales', 'logistics', 'marketing', 'support'] },
  { name: 'Staffing and Recruiting', weight: 5, families: ['hr', 'admin', 'logistics', 'healthcare', 'manufacturing', 'sales'] },
  { name: 'Manufacturing', weight: 5, families: ['manufacturing', 'trades', 'logistics', 'science'] },
  { name: 'Transportation, Logistics, Supply Chain and Storage', weight: 4, families: ['logistics', 'admin', 'trades'] },
  { name: 'Education', weight: 3, families: ['education', 'admin', 'it'] },
  { name: 'Higher Education', weight: 2, families: ['education', 'science', 'admin'] },
  { name: 'Construction', weight: 3, families: ['trades', 'manufacturing', 'admin'] },
  { name: 'Hospitality', weight: 3, families: ['hospitality', 'admin', 'sales'] },
  { name: 'Restaurants', weight: 2, families: ['hospitality'] },
  { name: 'Marketing Services', weight: 2.5, families: ['marketing', 'design', 'sales'] },
  { name: 'Business Consulting and Services', weight: 4, families: ['consulting', 'finance', 'data', 'hr'] },
  { name: 'Pharmaceutical Manufacturing', weight: 2, families: ['science', 'manufacturing', 'legal'] },
  { name: 'Biotechnology Research', weight: 2, families: ['science', 'data', 'healthcare'] },
  { name: 'Insurance', weight: 2, families: ['finance', 'support', 'legal', 'data'] },
  { name: 'Banking', weight: 2, families: ['finance', 'legal', 'software', 'support'] },
  { name: 'Law Practice', weight: 1, families: ['legal', 'admin'] },
  { name: 'Renewable Energy Semiconductor Manufacturing', weight: 0.5, families: ['energy', 'manufacturing'] },
  { name: 'Utilities', weight: 1.5, families: ['energy', 'trades', 'support'] },
  { name: 'Farming', weight: 0.6, families: ['energy', 'logistics'] },
  { name: 'Computer and Network Security', weight: 1.5, families: ['security', 'software', 'it'] },
  { name: 'Security and Investigations', weight: 1, families: ['security'] },
  { name: 'Media Production', weight: 1, families: ['marketing', 'design'] },
  { name: 'Government Administration', weight: 1.5, families: ['admin', 'it', 'legal', 'finance'] },
  { name: 'Non-profit Organizations', weight: 1.5, families: ['healthcare', 'education', 'admin', 'marketing'] },
  { name: 'Human Resources Services', weight: 1, families: ['hr', 'finance', 'software'] },
  { name: 'Food and Beverage Services', weight: 1.5, families: ['hospitality', 'logistics', 'manufacturing'] },
];
