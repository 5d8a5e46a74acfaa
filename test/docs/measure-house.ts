// Prints the house's figures (docs/layout.md): `npx tsx test/docs/measure-house.ts`.
import { circles, folderShares, layers, sourceFiles } from './import-graph.ts';

const files = sourceFiles();
const { crossFolder, order, upward } = layers(files);
console.log(`import circles: ${circles(files).length}`);
console.log(`imports across folders: ${crossFolder}; running from a lower layer to a higher one: ${upward.length}`);
console.log(`layers, top to ground: ${order.join(' > ')}`);
for (const line of upward) console.log(`  upward: ${line}`);
const shares = [...folderShares(files)].sort((a, b) => b[1].lines - a[1].lines);
console.log(`largest folders: ${shares.slice(0, 6).map(([folder, { lines, share }]) => `${folder} ${lines} (${(share * 100).toFixed(1)} %)`).join(', ')}`);
