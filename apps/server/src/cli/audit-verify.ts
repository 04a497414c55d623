import { verifyAuditChain } from '../audit/audit.repository.ts';
import { withCliRuntime } from './cli-runtime.ts';

await withCliRuntime(async ({ database }) => {
  const result = await verifyAuditChain(database.db);
  if (result.ok) {
    console.log(`Audit trail intact: ${result.entries} entries verified.`);
    return 0;
  }
  console.error(`Audit trail BROKEN at entry ${result.brokenAt}: ${result.reason}.`);
  console.error(`${result.entries - 1} entries before it verified.`);
  return 1;
});
