// Lets tests import sibling .md files as strings, as esbuild's text loader does in the bundle.
import { register } from 'node:module';
register('./md-hooks.mjs', import.meta.url);
