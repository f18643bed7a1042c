import { benchClientThroughput } from './client-throughput.js';

const rows = await benchClientThroughput(5, 3000);
console.table(rows.map((r) => ({ what: r.what, value: r.value, ref: r.reference?.value, ratio: r.ratio })));
