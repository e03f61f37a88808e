// Every migration, one file each: `NNN-name.ts` exports `migration` with id NNN; they run in order of id.
// A released migration is frozen: it is never edited and imports nothing but the type, so that what it
// does to a new database is what it did when it was released. A change is a new migration.
// To add one: add the next `NNN-name.ts` (copy what it needs into it) and one line at the end below.
// test/db/migrations.test.ts checks that every file is listed here and that ids run 1, 2, 3, ...
export { migration as m001 } from './001-schema.ts';
export { migration as m002 } from './002-rate-limits-and-monthly-usage.ts';
export { migration as m003 } from './003-narrow-jobs-heap.ts';
export { migration as m004 } from './004-jobs-heap-filter-columns-stay-inline.ts';
export { migration as m005 } from './005-rate-limits-a-running-count-per-key.ts';
export { migration as m006 } from './006-replayable-data-versions.ts';
export { migration as m007 } from './007-shared-totals.ts';
export { migration as m008 } from './008-search-indexes-deferred-by-a-bulk-load.ts';
export { migration as m009 } from './009-search-vectors-computed-ahead-of-the-write.ts';
export { migration as m010 } from './010-admission-in-one-statement.ts';
export { migration as m011 } from './011-description-index-on-a-predicate-of-its-own.ts';
export { migration as m012 } from './012-folding-candidates-by-dedupe-key-from-an-index.ts';
export { migration as m013 } from './013-totals-per-filter-value.ts';
export { migration as m014 } from './014-description-index-with-the-country.ts';
export { migration as m015 } from './015-autovacuum-of-the-jobs-toast-table-after-about-one-change-round.ts';
export { migration as m016 } from './016-admission-of-several-requests-of-one-key-in-one-step.ts';
export { migration as m017 } from './017-rate-limits-one-window-row-per-take.ts';
export { migration as m018 } from './018-taxonomy-index-with-the-country.ts';
export { migration as m019 } from './019-salary-totals-per-thousand.ts';
export { migration as m020 } from './020-company-name-index-without-a-pending-list.ts';
export { migration as m021 } from './021-rate-limits-rows-leave-the-window-without-a-delete.ts';
export { migration as m022 } from './022-jobs-heap-the-document-stays-in-the-row.ts';
export { migration as m023 } from './023-jobs-heap-the-filter-columns-stay-in-the-row-beside-the-document.ts';
export { migration as m024 } from './024-job-history.ts';
export { migration as m025 } from './025-data-changes-name-the-purged-jobs.ts';
export { migration as m026 } from './026-data-changes-name-every-job-written.ts';
export { migration as m027 } from './027-description-vectors-of-live-jobs-in-a-narrow-table.ts';
export { migration as m028 } from './028-job-texts-statements-planned-for-each-statement.ts';
export { migration as m029 } from './029-fill-rates-kept-per-commit.ts';
export { migration as m030 } from './030-description-pages-read-through-job-texts.ts';
