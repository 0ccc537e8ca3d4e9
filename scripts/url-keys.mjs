#!/usr/bin/env node
// Prints the markdown table of the page's URL keys, generated from the state schema
// (web/src/state/schema.js). Usage: node scripts/url-keys.mjs
import { SCHEMA, VERSION } from '../web/src/state/schema.js';

const fmt = (spec) => {
  switch (spec.type) {
    case 'int': return [`integer`, String(spec.default), `${spec.min}..${spec.max}`];
    case 'num': return [`number (step ${spec.step})`, String(spec.default), `${spec.min}..${spec.max}`];
    case 'enum': return ['enum', spec.default, spec.values.join(' \\| ')];
    case 'bool': return ['0 \\| 1', spec.default ? '1' : '0', '0, 1 (or true, false)'];
    case 'list': return ['comma list', spec.default.join(','), spec.values.join(', ')];
    case 'version': return ['major.minor.patch', spec.default, 'any version'];
    case 'nums': return ['number list', spec.default.join(','), `1..${spec.maxLength} numbers in ${spec.min}..${spec.max}${spec.negInf ? " or -inf" : ""}`];
    default: throw new Error(`unknown type ${spec.type}`);
  }
};
const rows = [
  'Enum and boolean values are read in any case (`dq=ALIBI`, `lalibi=TRUE`, `lang=ZH-cn`): the value is used, the notice says it',
  'was corrected, and the link is written back in the case of the table. Any other value falls back to the default.',
  '',
  '| Key | Type | Default | Range / values | Panels | Meaning |',
  '|---|---|---|---|---|---|',
  `| \`v\` | integer | ${VERSION} | ${VERSION} | all | Version of the hash format. |`,
];
for (const [key, spec] of Object.entries(SCHEMA)) {
  const [type, def, range] = fmt(spec);
  rows.push(`| \`${key}\` | ${type} | ${def} | ${range} | ${spec.panels} | ${spec.doc.replaceAll('|', '\\|')} |`);
}
console.log(rows.join('\n'));
