import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { registerTaskPayloads } from '../jobs/tasks.ts';
import type { DomainModule } from './domain-module.ts';

/*
 * The domains, found rather than listed (decision 053): every `src/<folder>/*.module.ts` whose default export
 * is a module. Loaded once per process, in an order where each module comes after the ones it names in
 * `after` (then by name), with their task payload schemas registered with the job queue.
 *
 * Domain code never imports this file: it is read by the runtime (and tests) only, and a module importing it
 * would wait for itself.
 */

const SRC = path.resolve(import.meta.dirname, '..');

/** The module files under src/, one folder deep, sorted. */
export function moduleFiles(src: string = SRC): string[] {
  return fs
    .readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) =>
      fs
        .readdirSync(path.join(src, dir.name))
        .filter((file) => file.endsWith('.module.ts'))
        .map((file) => path.join(src, dir.name, file)),
    )
    .sort();
}

/** Orders modules so that each comes after every module it names in `after`; ties by name. */
export function orderModules(found: readonly DomainModule[]): DomainModule[] {
  const byName = new Map<string, DomainModule>();
  for (const module of found) {
    if (byName.has(module.name)) throw new Error(`two modules are named ${module.name}`);
    byName.set(module.name, module);
  }
  for (const module of found)
    for (const name of module.after ?? [])
      if (!byName.has(name)) throw new Error(`module ${module.name} comes after ${name}, which no module is named`);
  const ordered: DomainModule[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (module: DomainModule, trail: string[]): void => {
    if (placed.has(module.name)) return;
    if (visiting.has(module.name))
      throw new Error(`modules depend on each other: ${[...trail, module.name].join(' -> ')}`);
    visiting.add(module.name);
    for (const name of [...(module.after ?? [])].sort()) place(byName.get(name)!, [...trail, module.name]);
    visiting.delete(module.name);
    placed.add(module.name);
    ordered.push(module);
  };
  for (const module of [...found].sort((a, b) => a.name.localeCompare(b.name))) place(module, []);
  return ordered;
}

function isModule(value: unknown): value is DomainModule {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}

async function loadModules(): Promise<readonly DomainModule[]> {
  // Loaded together (their imports overlap), then ordered.
  const found = await Promise.all(
    moduleFiles().map(async (file) => {
      const exports = (await import(pathToFileURL(file).href)) as { default?: unknown };
      if (!isModule(exports.default)) throw new Error(`${file} has no module as its default export`);
      return exports.default;
    }),
  );
  const ordered = orderModules(found);
  for (const module of ordered)
    registerTaskPayloads(module.taskPayloads ?? {}, { selfRescheduling: module.selfReschedulingTasks ?? [] });
  return ordered;
}

/** Every domain module, in dependency order. */
export const modules: readonly DomainModule[] = await loadModules();

/**
 * Recurring work of every module, in graphile-worker's crontab format (UTC; minute hour day month weekday task
 * ?options). Every instance runs the same crontab and each entry is scheduled once per time however many run.
 * Give each line a fixed `id` (changing it can run a time twice). `jobKey` keeps one pending job per entry when
 * an attempt fails and waits for its retry; `max` bounds the retries of work the next run redoes anyway.
 * (Lines that depend on the configuration, the scheduled backup's, come from the modules' `create`.)
 */
export const crontab: string = modules.flatMap((module) => module.crontab ?? []).join('\n');
