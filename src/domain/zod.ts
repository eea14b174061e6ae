/**
 * The parts of zod econsig uses, imported by name. `import { z } from 'zod'` is the whole
 * library as one namespace, so a bundle keeps all of it and runs all of it at start-up:
 * every locale, the JSON Schema converter and more (600 KB). By name, esbuild keeps only
 * what is used. Use it as `import * as z from './zod.js'`; the names are zod's own.
 */
export { array, boolean, email, enum, number, object, string, unknown, ZodObject, ZodOptional } from 'zod';
export type { core, infer, ZodError, ZodRawShape } from 'zod';
