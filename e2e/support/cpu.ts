import { appendFileSync, readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds used so far by this worker process and everything it started (its browser, the browser's zygote and
 * renderers), for `E2E_CPU_LOG` (decision 055). Each process's own time plus what its exited children left it
 * (utime, stime, cutime, cstime of /proc/PID/stat): a renderer that ended when its context closed is counted in
 * the process that waited for it. Linux only; answers 0 elsewhere.
 */
export function treeCpuSeconds(root = process.pid): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const name of entries) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name (field 2) may hold spaces: the fields after it start after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(name);
    const parent = Number(fields[1]);
    ticks.set(pid, Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    total += ticks.get(pid) ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return total / 100; // USER_HZ is 100 on Linux
}

/** Appends one test's CPU seconds (this worker's process tree, servers excluded) to the `E2E_CPU_LOG` file. */
export function logTestCpu(file: string, spec: string, title: string, seconds: number, wallSeconds: number): void {
  appendFileSync(file, `${JSON.stringify({ spec, title, cpu: Number(seconds.toFixed(2)), wall: wallSeconds })}\n`);
}
