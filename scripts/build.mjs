// `npm run build` (and the first step of `npm start`): compiles src/ to plain JavaScript in dist/, so that
// the served processes run no transpiler. Type-checking is `npm run typecheck`; this only emits. Data files
// that the code reads beside itself (JSON under src/, the /explore page's HTML, CSS and browser script) are
// copied next to the compiled modules.
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
cpSync(path.join(root, 'src'), path.join(root, 'dist'), {
  recursive: true,
  filter: (src) => !path.extname(src) || /\.(json|html|css|js)$/.test(src),
});
