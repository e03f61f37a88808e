import { CodeValues, FactColumn } from '/work/main/src/search/match-codes.ts';
const flat = (s: string) => Buffer.from(s).toString();
function measure(label: string, f: () => unknown) { (global as any).gc(); const b = process.memoryUsage().heapUsed; const keep = f(); (global as any).gc(); console.log(label, ((process.memoryUsage().heapUsed - b) / 1e6).toFixed(2), 'MB'); return keep; }
const orgs = Array.from({length: 75050}, (_, i) => flat('acme corp ' + i.toString(36) + ' systems'));
const slugs = Array.from({length: 66634}, (_, i) => flat('company-slug-' + i.toString(36) + '-x'));
const k1 = measure('org CodeValues', () => CodeValues.of(orgs));
const k2 = measure('company CodeValues', () => CodeValues.of(slugs));
const k3 = measure('emp', () => FactColumn.of([null, ...Array.from({length: 66634}, (_, i) => i * 7)]));
const k4 = measure('funding', () => FactColumn.of([null, ...Array.from({length: 66634}, (_, i) => flat(String(1e9 + i * 12345)))]));
const k5 = measure('hq', () => FactColumn.of([null, ...Array.from({length: 66634}, (_, i) => flat(['US','DE','FR'][i % 3]))]));
const k6 = measure('domain', () => FactColumn.of([null, ...Array.from({length: 66634}, (_, i) => flat('company' + i + '.example'))]));
console.log([k1,k2,k3,k4,k5,k6].length);
let t = Date.now(); let hits = 0; for (let r = 0; r < 10; r++) for (let c = 1; c <= (k1 as CodeValues).size; c++) if ((k1 as CodeValues).at(c).includes('zz')) hits++;
console.log('scan 75k names', (Date.now() - t) / 10, 'ms', hits);
t = Date.now(); for (let r = 0; r < 1000; r++) (k2 as CodeValues).get(slugs[r * 13]); console.log('get', (Date.now() - t) / 1000, 'ms');
