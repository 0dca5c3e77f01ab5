import { flushCompileCache } from 'node:module';

/**
 * With NODE_COMPILE_CACHE (npm start sets it), writes the modules' type-stripped and compiled
 * forms to disk now, once started, not at exit, which a killed process never reaches: a start
 * that finds them strips no types and never loads Node's type stripper (amaro, WebAssembly:
 * 15-17 MB resident; issue 34). Without it, nothing.
 */
export function saveCompileCache(): void {
  flushCompileCache();
}
