/**
 * `npm run cases -- <folder>`: run every JSON scoring case of a folder (default ../shared/cases), one line per
 * case and a closing line `N passed, N failed`; exit code 1 on any failure.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatResult, runFolder } from '../helpers/case-runner';

const dir = resolve(process.argv[2] ?? '../shared/cases');
if (!existsSync(dir)) {
  console.error(`cases: folder not found: ${dir}`);
  process.exit(2);
}
const results = runFolder(dir);
for (const r of results) console.log(formatResult(r));
const failed = results.filter((r) => !r.passed).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
