// The explore page: instant search over the public API, with facets, a salary histogram, the trend of
// added and expired postings, and a posting's detail with its history. The page's URL holds the query
// (the /v1/jobs filters as they are sent, plus `job` for the posting open), so a URL can be shared and
// reloaded. The key lives in this tab's session storage and goes only into the Authorization header.
// Nothing is loaded from elsewhere: charts are SVG drawn here, logos are lettermarks.

const KEY = 'jps-explore-key';
const PAGE_SIZE = 20;
const FACET_LIMIT = 8;
// While a query is typed its results are asked for at once (the last request is aborted by the next),
// and its facets and charts once typing pauses: a search per key costs one request, not four.
const DEBOUNCE_MS = 20;
const ANALYTICS_WAIT_MS = 250;
const TEXT_PARAMS = ['title', 'description'];

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
const displayOf = (names) => (v) => {
  try {
    return names.of(v) ?? v;
  } catch {
    return v;
  }
};

// The facets shown, in order: the dimension of /v1/jobs/facets, the /v1/jobs filter a click adds, and
// whether that filter takes one value (`single`) or a comma list (OR; `skill` is AND).
const FACETS = [
  { name: 'country', param: 'country', label: 'Country', show: displayOf(regionNames) },
  {
    name: 'remote',
    param: 'remote',
    label: 'Remote',
    single: true,
    show: (v) => (v === 'true' ? 'Remote' : 'Not remote'),
  },
  { name: 'work_arrangement', param: 'work_arrangement', label: 'Work arrangement' },
  { name: 'seniority', param: 'seniority', label: 'Seniority' },
  { name: 'employment_type', param: 'employment_type', label: 'Employment type' },
  { name: 'experience_level', param: 'experience_level', label: 'Experience (years)' },
  { name: 'taxonomies', param: 'taxonomies', label: 'Taxonomy' },
  { name: 'skills', param: 'skill', label: 'Skills (all of)' },
  // No filter takes a company's slug: a click filters on its name (a case-insensitive substring).
  { name: 'company', param: 'organization', label: 'Company', single: true, byName: true },
  { name: 'company_industry', param: 'company_industry', label: 'Industry' },
  { name: 'job_language', param: 'language', label: 'Language', show: displayOf(languageNames) },
  { name: 'source_type', param: 'source_type', label: 'Source type' },
];

const EXPIRY_REASONS = {
  removed_from_source: 'removed from its source',
  valid_through_passed: 'its closing date passed',
  source_marked_closed: 'its source marked it closed',
  aged_out: 'aged out (not seen for too long)',
};
const COPY_REASONS = {
  same_url: 'same URL',
  same_employer_title_place: 'same employer, title and place',
  near_identical_description: 'near-identical description',
};

const $ = (id) => document.getElementById(id);
const number = new Intl.NumberFormat('en');
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const fmt = (n) => number.format(n);

let key = sessionStorage.getItem(KEY) ?? '';
let current = null; // the AbortController of the query shown
let nextCursor = null;
let typing = 0;
let retryTimer = 0;
let salaryBody = null;
let currency = null;

// ---------------------------------------------------------------- DOM helpers (text only, no HTML)

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, v);
  el.append(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return el;
}

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(status, body, retryAfter) {
    super(`${status}`);
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One API request with the key. Too much expensive work at once (a 429 for the account's share of
 * aggregations and heavy searches, a 503 for the process's) is asked again after its Retry-After, twice
 * at most: a query typed on while the last one still runs meets its own requests there.
 */
async function api(path, params, signal, tries = 3) {
  const qs = params ? params.toString() : '';
  const res = await fetch(qs ? `${path}?${qs}` : path, {
    headers: { authorization: `Bearer ${key}` },
    signal,
    cache: 'no-store',
  });
  const body = await res.json().catch(() => ({}));
  const retryAfter = res.headers.get('retry-after');
  const busy =
    (res.status === 429 && body.error === 'too many expensive requests') ||
    (res.status === 503 && body.error === 'service unavailable');
  if (busy && retryAfter && tries > 1) {
    await sleep(Number(retryAfter) * 1000);
    signal?.throwIfAborted();
    return api(path, params, signal, tries - 1);
  }
  if (!res.ok) throw new ApiError(res.status, body, retryAfter);
  return body;
}

/** The API's own words for a failure: status, error, the parameter a 400 names, its hint. */
function describe(err) {
  if (!(err instanceof ApiError)) return `The request failed: ${err.message}`;
  const b = err.body ?? {};
  let text = `${err.status} ${b.error ?? ''}`.trim();
  if (b.param) text += ` — parameter ${b.param}`;
  if (b.hint) text += `: ${b.hint}`;
  if (err.status === 429) {
    const s = Number(err.retryAfter);
    text += Number.isFinite(s)
      ? ` (asking again at ${new Date(Date.now() + s * 1000).toLocaleTimeString()})`
      : ' (no retry time is given: the monthly quota resets as the hint says)';
  }
  return text;
}

function showErrors(errors) {
  const box = $('error');
  const texts = [...new Set(errors.map(describe))];
  box.replaceChildren(...texts.map((t) => h('p', {}, t)));
  box.hidden = texts.length === 0;
  if (errors.some((e) => e instanceof ApiError && e.status === 401)) {
    sessionStorage.removeItem(KEY);
    askKey();
  }
  // A per-minute 429 says when: ask again then.
  const wait = Math.max(
    0,
    ...errors.filter((e) => e instanceof ApiError && e.status === 429).map((e) => Number(e.retryAfter) || 0),
  );
  clearTimeout(retryTimer);
  if (wait > 0) retryTimer = setTimeout(search, wait * 1000);
}

// ---------------------------------------------------------------- the page's state is its URL

const pageParams = () => new URLSearchParams(location.search);

/** The /v1/jobs filters of the page: its URL's parameters but `job`. */
function filtersOf(params) {
  const f = new URLSearchParams(params);
  f.delete('job');
  return f;
}

function go(params, push) {
  const qs = params.toString();
  history[push ? 'pushState' : 'replaceState'](null, '', qs ? `/explore?${qs}` : '/explore');
}

const listOf = (params, name) => (params.get(name) ?? '').split(',').filter(Boolean);

/** The search box and its field from the URL. */
function syncInputs() {
  const p = pageParams();
  const field = TEXT_PARAMS.find((f) => p.has(f)) ?? $('field').value;
  $('field').value = field;
  if (document.activeElement !== $('q')) $('q').value = p.get(field) ?? '';
}

/** When the last key of the query being typed was pressed (performance.now()), until its search starts. */
let typedAt;

function onType() {
  typedAt = performance.now();
  clearTimeout(typing);
  typing = setTimeout(() => {
    const p = pageParams();
    for (const f of TEXT_PARAMS) p.delete(f);
    const text = $('q').value.trim();
    if (text) p.set($('field').value, text);
    if (p.toString() === location.search.slice(1)) return;
    go(p, false);
    search(ANALYTICS_WAIT_MS);
  }, DEBOUNCE_MS);
}

function toggle(facet, value) {
  const p = pageParams();
  let values = facet.single ? [p.get(facet.param)].filter(Boolean) : listOf(p, facet.param);
  values = values.includes(value)
    ? values.filter((v) => v !== value)
    : facet.single
      ? [value]
      : [...values, value];
  if (values.length) p.set(facet.param, values.join(','));
  else p.delete(facet.param);
  go(p, true);
  search();
}

function removeFilter(name) {
  const p = pageParams();
  p.delete(name);
  go(p, true);
  search();
}

// ---------------------------------------------------------------- one query: results, facets, charts

/** Asks for the page's query: its results, then (after `analyticsWait` ms, unless asked again) the rest. */
function search(analyticsWait = 0) {
  clearTimeout(retryTimer);
  if (!key) return askKey();
  current?.abort();
  const run = new AbortController();
  current = run;
  const filters = filtersOf(pageParams());
  renderChips(filters);
  const page = new URLSearchParams(filters);
  page.set('limit', String(PAGE_SIZE));
  $('api-url').textContent = `GET /v1/jobs?${page}`;
  const facets = new URLSearchParams(filters);
  facets.set('facets', FACETS.map((f) => f.name).join(','));
  facets.set('facet_limit', String(FACET_LIMIT));
  document.body.removeAttribute('data-shown');
  document.body.setAttribute('aria-busy', 'true');
  const shown = (render) => (body) => run.signal.aborted || render(body);
  // Typing to results on screen, on the browser's performance timeline (bench/explore-typing.ts reads it).
  const typed = typedAt;
  typedAt = undefined;
  const measured = (body) => {
    if (typed !== undefined && !run.signal.aborted)
      performance.measure('explore: typed to results', { start: typed, end: performance.now() });
    return body;
  };
  const failed = (clear) => (err) => {
    if (!run.signal.aborted) clear();
    throw err;
  };
  // Two requests at a time (an account may run two expensive ones at once): the results and the facets
  // first, the charts after them.
  const results = api('/v1/jobs', page, run.signal).then(
    shown((b) => measured(renderResults(b, false))),
    failed(() => renderResults({ data: [], total: null, next_cursor: null }, false)),
  );
  const paused = analyticsWait
    ? sleep(analyticsWait).then(() => run.signal.throwIfAborted())
    : Promise.resolve();
  const facetsShown = paused
    .then(() => api('/v1/jobs/facets', facets, run.signal))
    .then(
      shown(renderFacets),
      failed(() => renderFacets({ facets: {} })),
    );
  const after = (first, path, render) =>
    first
      .catch(() => {})
      .then(() => api(path, filters, run.signal))
      .then(
        shown(render),
        failed(() => render(null)),
      );
  const parts = [
    results,
    facetsShown,
    after(
      results.then(() => paused),
      '/v1/jobs/salary',
      renderSalary,
    ),
    after(facetsShown, '/v1/jobs/trends', renderTrends),
  ];
  Promise.allSettled(parts).then((outcomes) => {
    if (run.signal.aborted) return;
    showErrors(outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason));
    document.body.removeAttribute('aria-busy');
    // What is on screen, for scripts and tests: the filters it answers.
    document.body.dataset.shown = filters.toString();
  });
}

async function more() {
  if (!nextCursor) return;
  const page = filtersOf(pageParams());
  page.set('limit', String(PAGE_SIZE));
  page.set('cursor', nextCursor);
  const button = $('more');
  button.disabled = true;
  try {
    renderResults(await api('/v1/jobs', page, current?.signal), true);
  } catch (err) {
    if (err.name !== 'AbortError') showErrors([err]);
  } finally {
    button.disabled = false;
  }
}

// ---------------------------------------------------------------- results

function lettermark(company) {
  const name = company?.name ?? '?';
  const letters = name
    .split(/\s+/)
    .filter((w) => /^\p{L}/u.test(w))
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join('');
  let hash = 0;
  for (const c of company?.slug ?? name) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  const mark = h('span', { class: 'mark', 'aria-hidden': 'true' }, letters || '?');
  mark.style.backgroundColor = `hsl(${hash % 360} 45% 38%)`;
  return mark;
}

function places(location) {
  const list = [...new Set([...(location.cities ?? []), ...location.countries])];
  const shown = list.slice(0, 3).join(', ') + (list.length > 3 ? ` +${list.length - 3}` : '');
  return [location.remote ? 'Remote' : '', shown].filter(Boolean).join(' · ') || 'No place given';
}

function salaryText(s) {
  if (!s) return '';
  if (s.summary) return s.summary;
  const lo = s.annual_min ?? s.min;
  const hi = s.annual_max ?? s.max;
  if (lo === undefined && hi === undefined) return '';
  const range = lo !== undefined && hi !== undefined && lo !== hi ? `${fmt(lo)}–${fmt(hi)}` : fmt(lo ?? hi);
  return `${range} ${s.currency ?? ''}`.trim();
}

function ago(iso) {
  const days = (Date.now() - Date.parse(iso)) / 86_400_000;
  if (!Number.isFinite(days)) return '';
  if (days < 1 / 24) return 'just now';
  if (days < 1) return `${Math.floor(days * 24)} h ago`;
  if (days < 60) return `${Math.floor(days)} d ago`;
  return new Date(iso).toISOString().slice(0, 10);
}

function jobHref(id) {
  const p = pageParams();
  p.set('job', id);
  return `/explore?${p}`;
}

function resultItem(job) {
  const link = h('a', { href: jobHref(job.id), class: 'title' }, job.title);
  link.addEventListener('click', (e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    openJob(job.id, true);
  });
  const salary = salaryText(job.salary);
  return h(
    'li',
    { class: 'result', 'data-id': job.id },
    lettermark(job.company),
    h(
      'div',
      {},
      link,
      h(
        'p',
        { class: 'meta' },
        h('span', { class: 'company' }, job.company?.name ?? ''),
        h('span', {}, places(job.location)),
        salary && h('span', { class: 'salary' }, salary),
        job.posted_at && h('time', { datetime: job.posted_at, title: job.posted_at }, ago(job.posted_at)),
      ),
    ),
  );
}

function renderResults(body, append) {
  const list = $('results');
  if (!append) list.replaceChildren();
  list.append(...body.data.map(resultItem));
  nextCursor = body.next_cursor ?? null;
  $('more').hidden = !nextCursor;
  if (append) return;
  const summary = $('summary');
  if (body.total === null) {
    summary.textContent = '';
    summary.removeAttribute('data-total');
    return;
  }
  summary.dataset.total = String(body.total);
  summary.textContent =
    body.total === 0 ? 'No posting matches.' : `${fmt(body.total)} posting${body.total === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------- facets and the active filters

function renderFacets(body) {
  const box = $('facets');
  // A keyboard user who pressed Enter on a value keeps the focus on it once the facets are new.
  const focused = document.activeElement?.closest?.('.facet-value');
  const refocus = focused && [focused.dataset.param, focused.dataset.value];
  box.replaceChildren();
  const p = pageParams();
  for (const facet of FACETS) {
    const data = body.facets?.[facet.name];
    if (!data || data.values.length === 0) continue;
    const chosen = facet.single ? [p.get(facet.param)] : listOf(p, facet.param);
    const items = data.values.map((v) => {
      const value = facet.byName ? (v.name ?? String(v.value)) : String(v.value);
      const label = facet.byName ? value : facet.show ? facet.show(value) : value;
      const on = chosen.includes(value);
      const button = h(
        'button',
        {
          type: 'button',
          class: 'facet-value',
          'aria-pressed': String(on),
          'data-param': facet.param,
          'data-value': value,
        },
        h('span', { class: 'label' }, label),
        h('span', { class: 'count' }, fmt(v.count)),
      );
      button.addEventListener('click', () => toggle(facet, value));
      return h('li', {}, button);
    });
    const rest = data.distinct - data.values.length;
    box.append(
      h(
        'section',
        { class: 'facet', 'data-facet': facet.name },
        h('h2', {}, facet.label),
        h('ul', {}, items),
        (rest > 0 || data.missing > 0) &&
          h(
            'p',
            { class: 'note' },
            [
              rest > 0 ? `${fmt(rest)} more values` : '',
              data.missing > 0 ? `${fmt(data.missing)} without` : '',
            ]
              .filter(Boolean)
              .join(' · '),
          ),
      ),
    );
  }
  if (refocus)
    [...box.querySelectorAll('.facet-value')]
      .find((b) => b.dataset.param === refocus[0] && b.dataset.value === refocus[1])
      ?.focus();
}

function renderChips(filters) {
  const chips = [];
  for (const [name, value] of filters) {
    if (TEXT_PARAMS.includes(name)) continue;
    const button = h('button', { type: 'button', class: 'chip', 'aria-label': `Remove ${name}: ${value}` });
    button.append(h('span', {}, `${name}: ${value}`), h('span', { 'aria-hidden': 'true' }, ' ×'));
    button.addEventListener('click', () => {
      removeFilter(name);
      $('q').focus();
    });
    chips.push(button);
  }
  $('chips').replaceChildren(...chips);
  const n = chips.length;
  $('facets-box').querySelector('summary').textContent = n ? `Filters (${n} active)` : 'Filters';
}

// ---------------------------------------------------------------- charts

const W = 360;
const H = 150;
const PAD = { left: 34, right: 6, top: 8, bottom: 22 };

function axisY(chart, max) {
  const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / max);
  for (const v of [0, max / 2, max]) {
    chart.append(
      svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: 'grid' }),
      svg('text', { x: PAD.left - 4, y: y(v) + 3, 'text-anchor': 'end' }, compact.format(v)),
    );
  }
  return y;
}

function chartFrame(label) {
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label });
}

// The last bucket is open-ended (`to` null).
const bucketText = (b) => (b.to === null ? `${fmt(b.from)} and more` : `${fmt(b.from)}–${fmt(b.to)}`);

function renderSalary(body) {
  salaryBody = body;
  const box = $('salary');
  const picker = $('currencies');
  box.replaceChildren();
  picker.replaceChildren();
  $('salary-note').textContent = body
    ? `· ${fmt(body.with_salary)} of ${fmt(body.total)} postings state one`
    : '';
  const currencies = body?.currencies ?? [];
  if (currencies.length === 0) {
    box.append(h('p', { class: 'note' }, body ? 'No salary stated.' : ''));
    return;
  }
  const pick = currencies.find((c) => c.currency === currency) ?? currencies[0];
  if (currencies.length > 1) {
    for (const c of currencies.slice(0, 6)) {
      const b = h(
        'button',
        { type: 'button', class: 'chip', 'aria-pressed': String(c === pick) },
        `${c.currency} ${compact.format(c.count)}`,
      );
      b.addEventListener('click', () => {
        currency = c.currency;
        renderSalary(salaryBody);
      });
      picker.append(b);
    }
  }
  const bars = pick.histogram;
  const max = Math.max(1, ...bars.map((b) => b.count));
  const chart = chartFrame(`Salary histogram in ${pick.currency}, median ${fmt(pick.median)}`);
  const y = axisY(chart, max);
  const step = (W - PAD.left - PAD.right) / Math.max(1, bars.length);
  const every = Math.ceil(bars.length / 6);
  bars.forEach((b, i) => {
    const x = PAD.left + i * step;
    chart.append(
      svg(
        'rect',
        { x: x + 1, y: y(b.count), width: Math.max(1, step - 2), height: y(0) - y(b.count), class: 'bar' },
        svg('title', {}, `${bucketText(b)} ${pick.currency}: ${fmt(b.count)}`),
      ),
    );
    if (i % every === 0)
      chart.append(svg('text', { x, y: H - 6, 'text-anchor': 'start' }, compact.format(b.from)));
  });
  box.append(
    chart,
    h(
      'p',
      { class: 'note' },
      `${pick.currency}: p10 ${compact.format(pick.p10)} · median ${compact.format(pick.median)} · p90 ${compact.format(pick.p90)} (${fmt(pick.count)} postings)`,
    ),
  );
}

function renderTrends(body) {
  const box = $('trends');
  box.replaceChildren();
  const series = body?.series ?? [];
  if (body) $('trend-interval').textContent = body.interval;
  if (series.length === 0) {
    box.append(h('p', { class: 'note' }, body ? 'No postings in this window.' : ''));
    return;
  }
  const max = Math.max(1, ...series.map((s) => Math.max(s.added, s.expired)));
  const chart = chartFrame(`Postings added and expired per ${body.interval}, ${body.since} to ${body.until}`);
  const y = axisY(chart, max);
  const step = (W - PAD.left - PAD.right) / Math.max(1, series.length - 1);
  const x = (i) => PAD.left + i * step;
  for (const kind of ['added', 'expired']) {
    const points = series.map((s, i) => `${x(i).toFixed(1)},${y(s[kind]).toFixed(1)}`).join(' ');
    chart.append(svg('polyline', { points, class: `line ${kind}` }));
  }
  // One invisible column per point, for its figures on hover.
  series.forEach((s, i) => {
    chart.append(
      svg(
        'rect',
        {
          x: x(i) - step / 2,
          y: PAD.top,
          width: Math.max(step, 1),
          height: H - PAD.top - PAD.bottom,
          class: 'hover',
        },
        svg(
          'title',
          {},
          `${s.start.slice(0, 10)}: ${fmt(s.added)} added, ${fmt(s.expired)} expired, ${fmt(s.live)} live`,
        ),
      ),
    );
  });
  chart.append(
    svg('text', { x: PAD.left, y: H - 6 }, series[0].start.slice(0, 10)),
    svg('text', { x: W - PAD.right, y: H - 6, 'text-anchor': 'end' }, series.at(-1).start.slice(0, 10)),
  );
  box.append(chart);
}

// ---------------------------------------------------------------- a posting and its history

function fact(term, ...value) {
  return value.some((v) => v) ? [h('dt', {}, term), h('dd', {}, ...value)] : [];
}

function outLink(url, text) {
  return url ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, text ?? url) : null;
}

const day = (iso) => (iso ? iso.replace('T', ' ').slice(0, 16) : '');

function changeText(change) {
  const side = (v) =>
    v && typeof v === 'object' && 'length' in v
      ? `${fmt(v.length)} characters`
      : Array.isArray(v)
        ? v.join(', ')
        : v === null || v === undefined
          ? '—'
          : String(v);
  return `${side(change.old)} → ${side(change.new)}`;
}

function historyView(hist) {
  const versions = hist.versions ?? [];
  const copies = hist.copies ?? [];
  const expiry = hist.expired_at
    ? `${day(hist.expired_at)}: ${EXPIRY_REASONS[hist.expiry_reason] ?? hist.expiry_reason ?? 'expired'}`
    : 'live';
  return h(
    'section',
    { id: 'history', 'data-versions': versions.length, 'data-copies': copies.length },
    h('h3', {}, 'History'),
    hist.folded_into &&
      h(
        'p',
        { class: 'note' },
        `${hist.requested_id} is a copy folded into ${hist.folded_into}; its history:`,
      ),
    h(
      'dl',
      { class: 'facts' },
      fact('First seen', day(hist.first_seen_at)),
      fact('Last seen', day(hist.last_seen_at)),
      fact('Expiry', expiry),
    ),
    h('h4', {}, `Versions (${versions.length})`),
    versions.length
      ? h(
          'ol',
          { class: 'versions' },
          versions.map((v) =>
            h(
              'li',
              {},
              h('time', { datetime: v.modified_at }, day(v.modified_at)),
              ` ${v.modified_fields.join(', ')}`,
              h(
                'ul',
                {},
                Object.entries(v.changes ?? {}).map(([field, c]) =>
                  h('li', {}, `${field}: ${changeText(c)}`),
                ),
              ),
            ),
          ),
        )
      : h('p', { class: 'note' }, 'No tracked field changed since it was first seen.'),
    h('h4', {}, `Copies (${copies.length})`),
    copies.length
      ? h(
          'ul',
          { class: 'copies' },
          copies.map((c) =>
            h(
              'li',
              { 'data-id': c.id },
              h('code', {}, c.id),
              ` ${c.source} (${c.source_type}), ${COPY_REASONS[c.reason] ?? c.reason}; seen ${day(c.first_seen_at)} to ${day(c.last_seen_at)} `,
              outLink(c.url, 'posting'),
            ),
          ),
        )
      : h('p', { class: 'note' }, 'No copy of it was folded into it.'),
  );
}

function jobView(job) {
  const company = job.company ?? {};
  return [
    h('h2', { id: 'job-title' }, job.title),
    h(
      'p',
      { class: 'company-line' },
      lettermark(company),
      h('span', {}, company.name ?? ''),
      company.industry && h('span', { class: 'note' }, company.industry),
      company.employee_count && h('span', { class: 'note' }, `${fmt(company.employee_count)} employees`),
      outLink(company.website, company.domain),
    ),
    h(
      'dl',
      { class: 'facts' },
      fact('Places', places(job.location)),
      fact('Salary', salaryText(job.salary)),
      fact('Posted', day(job.posted_at)),
      fact('Arrangement', job.work_arrangement),
      fact('Employment', (job.employment_type ?? []).join(', ')),
      fact('Seniority', job.seniority),
      fact('Skills', (job.skills ?? []).join(', ')),
      fact('Source', `${job.source} (${job.source_type})`),
      fact('Id', h('code', {}, job.id)),
      fact('Apply', outLink(job.apply_url)),
    ),
    h('h3', {}, 'Description'),
    h('div', { class: 'description' }, job.description ?? ''),
  ];
}

async function openJob(id, push) {
  if (push) {
    const p = pageParams();
    p.set('job', id);
    go(p, true);
  }
  const dialog = $('job');
  const body = $('job-body');
  body.replaceChildren(h('p', {}, 'Loading…'));
  body.dataset.id = id;
  if (!dialog.open) dialog.showModal();
  const path = `/v1/jobs/${encodeURIComponent(id)}`;
  const [job, hist] = await Promise.allSettled([
    api(path, new URLSearchParams({ description_format: 'text' })),
    api(`${path}/history`),
  ]);
  if (body.dataset.id !== id) return; // another posting was opened meanwhile
  body.replaceChildren(
    ...(job.status === 'fulfilled' ? jobView(job.value) : [h('p', { class: 'error' }, describe(job.reason))]),
    hist.status === 'fulfilled' ? historyView(hist.value) : h('p', { class: 'error' }, describe(hist.reason)),
  );
}

function syncJob() {
  const id = pageParams().get('job');
  if (id) openJob(id, false);
  else if ($('job').open) $('job').close();
}

// ---------------------------------------------------------------- the key

function askKey() {
  $('key-form').hidden = false;
  $('key').focus();
}

function useKey(e) {
  e.preventDefault();
  const value = $('key').value.trim();
  if (!value) return;
  key = value;
  sessionStorage.setItem(KEY, key);
  $('key').value = '';
  $('key-form').hidden = true;
  $('error').hidden = true;
  $('q').focus();
  search();
  syncJob();
}

// ---------------------------------------------------------------- start

function start() {
  $('key-form').addEventListener('submit', useKey);
  $('change-key').addEventListener('click', askKey);
  $('search').addEventListener('submit', (e) => e.preventDefault());
  $('q').addEventListener('input', onType);
  $('field').addEventListener('change', onType);
  $('more').addEventListener('click', more);
  $('job-close').addEventListener('click', () => $('job').close());
  $('job').addEventListener('close', () => {
    const p = pageParams();
    if (!p.has('job')) return;
    p.delete('job');
    go(p, false);
  });
  window.addEventListener('popstate', () => {
    syncInputs();
    search();
    syncJob();
  });
  // The filters are a sidebar on wide screens and a folded section on narrow ones.
  const wide = matchMedia('(min-width: 50rem)');
  $('facets-box').open = wide.matches;
  wide.addEventListener('change', (e) => {
    $('facets-box').open = e.matches;
  });
  syncInputs();
  if (!key) return askKey();
  search();
  syncJob();
}

start();
